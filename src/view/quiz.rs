//! The quiz in the explanation panel's place: the open question with its
//! numbered choices, or, once answered, whether the guess was right, then
//! the step's own explanation (the reason, in the step's words).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::scene::Scene;
use super::text::hanging;
use crate::app::App;
use crate::i18n;
use crate::quiz::{Answer, Question};

/// What the quiz panel draws: the run at its step (the step's own
/// explanation follows the quiz's lines), the open question, and the
/// step's answer. Built from the app by `of`, or by hand to draw it alone.
pub struct QuizPanel<'a> {
    pub scene: &'a Scene<'a>,
    /// The question open now (about the next step).
    pub question: Option<Question>,
    /// The answer given at the step shown, with the question as it was
    /// asked (`quiz::asked`, in the scene's language).
    pub answer: Option<(Answer, Option<Question>)>,
    /// A key that moves on was pressed while the question is open: the
    /// hint says what to do, in the error's style.
    pub hint: bool,
    /// The step shown is one the lesson asks about (`quiz_steps`): when
    /// not, an unanswered step says the lesson chose others.
    pub chosen: bool,
    /// `--class`: the room's counts, and the question asked at the step
    /// shown (for its revealed split).
    pub class: Option<(&'a crate::class::Class, Option<Question>)>,
    /// `--class` whose room did not open, and why: the quiz is the
    /// teacher's own, as without `--class`, and says so.
    pub unopened: Option<&'a crate::room::Unopened>,
}

impl<'a> QuizPanel<'a> {
    /// The app's quiz at its step, over `scene` (`Scene::of(app)`).
    pub fn of(app: &'a App, scene: &'a Scene<'a>) -> QuizPanel<'a> {
        QuizPanel {
            scene,
            question: app.question(),
            answer: app.quiz.answers.get(&app.step).map(|a| {
                let asked = crate::quiz::asked(&app.loaded, app.trace(), app.step);
                (*a, asked)
            }),
            hint: app.quiz.hint,
            chosen: crate::quiz::asked(&app.loaded, app.trace(), app.step).is_some(),
            class: app.class.as_ref().filter(|c| c.join.is_ok()).map(|c| {
                let asked = crate::quiz::asked(&app.loaded, app.trace(), app.step);
                (c, asked)
            }),
            unopened: app.class.as_ref().and_then(|c| c.join.as_ref().err()),
        }
    }

    /// Draw it on `area`, scrolled `scroll` lines; returns how far it can
    /// scroll.
    pub fn render(&self, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
        let lines = self.lines(area.width as usize, area.height as usize);
        let s = self.scene;
        super::window::scrolled(s.lang, s.theme, lines, area, scroll, buf)
    }

    /// Its lines at width `w`, in a panel `h` lines high.
    pub fn lines(&self, w: usize, h: usize) -> Vec<Line<'static>> {
        lines(self, w, h)
    }
}

fn lines(p: &QuizPanel<'_>, w: usize, h: usize) -> Vec<Line<'static>> {
    let s = p.scene;
    if let Some(q) = p.question.clone() {
        let whole = question_lines(p, &q, w);
        if whole.len() <= h {
            return whole;
        }
        // A long real id in the prompt takes a line of its own; shortened
        // like a git hash, the choices fit. The table shows it whole.
        let step = &s.trace.steps[q.step];
        let short = Question {
            prompt: super::ids::shorten_ids(&q.prompt, step),
            ..q
        };
        return question_lines(p, &short, w);
    }
    let lang = s.lang;
    let theme = s.theme;
    let mut out = Vec::new();
    // The room's split, revealed at this step, in place of one answer.
    let revealed = p.class.as_ref().and_then(|(c, asked)| {
        let rounds = c
            .tallies
            .get(&s.step)
            .filter(|_| c.revealed.contains(&s.step))?;
        let q = asked.as_ref()?;
        Some(super::class::split_lines(rounds, q, lang, theme, w))
    });
    if let Some(split) = revealed {
        out.extend(split);
        out.push(Line::styled(
            i18n::lead(i18n::QUIZ_WHY, lang),
            theme.muted(),
        ));
    } else if s.step > 0 {
        match &p.answer {
            Some((answer, asked)) => {
                // The question asked, as it reads in the current language.
                if let Some(q) = asked {
                    let right = &q.choices[q.answer];
                    let verdict = if answer.right {
                        i18n::QUIZ_RIGHT.fill(lang, &[("n", &(q.answer + 1)), ("choice", right)])
                    } else {
                        let yours = q.choices.get(answer.choice).map_or("", String::as_str);
                        i18n::QUIZ_WRONG.fill(
                            lang,
                            &[
                                ("chosen", &(answer.choice + 1)),
                                ("yours", &yours),
                                ("n", &(q.answer + 1)),
                                ("choice", right),
                            ],
                        )
                    };
                    let style = if answer.right {
                        theme.ok()
                    } else {
                        theme.error()
                    };
                    out.extend(hanging(vec![], &verdict, style, w));
                    if p.hint {
                        let held = i18n::QUIZ_DIGIT_HELD.get(lang);
                        out.extend(hanging(vec![], held, theme.error(), w));
                    }
                    if let Some(why) = &q.why {
                        out.extend(hanging(vec![], why, Style::new(), w));
                    }
                    out.push(Line::styled(
                        i18n::lead(i18n::QUIZ_WHY, lang),
                        theme.muted(),
                    ));
                }
            }
            None => {
                let unasked = if p.chosen {
                    i18n::QUIZ_UNASKED
                } else {
                    i18n::QUIZ_NOT_CHOSEN
                };
                out.extend(hanging(vec![], unasked.get(lang), theme.muted(), w));
            }
        }
    }
    out.extend(super::explain::Explain { scene: s }.lines(w));
    out
}

fn question_lines(p: &QuizPanel<'_>, q: &Question, w: usize) -> Vec<Line<'static>> {
    let lang = p.scene.lang;
    let theme = p.scene.theme;
    let mut out = hanging(
        vec![],
        &q.prompt,
        Style::new().add_modifier(Modifier::BOLD),
        w,
    );
    for (i, choice) in q.choices.iter().enumerate() {
        out.extend(hanging(
            vec![Span::styled(format!(" [{}] ", i + 1), theme.current())],
            choice,
            Style::new(),
            w,
        ));
    }
    if let Some((class, _)) = &p.class {
        out.extend(super::class::answered_lines(class, q, lang, theme, w));
        return out;
    }

    let max = q.choices.len();
    let (hint, style) = if p.hint {
        (i18n::QUIZ_WAITING, theme.error())
    } else {
        (i18n::QUIZ_ANSWER_WITH, theme.muted())
    };
    out.extend(hanging(
        vec![],
        &hint.fill(lang, &[("max", &max)]),
        style,
        w,
    ));
    // After the digits, which still answer: why no phone does.
    if let Some(why) = p.unopened {
        let why = super::class::unopened(why, lang);
        let text = i18n::CLASS_NO_ROOM.fill(lang, &[("why", &why)]);
        out.extend(hanging(vec![], &text, theme.muted(), w));
    }
    out
}
