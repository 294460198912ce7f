//! The quiz in the explanation panel's place: the open question with its
//! numbered choices, or, once answered, whether the guess was right, then
//! the step's own explanation (the reason, in the step's words).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::text::hanging;
use crate::app::App;
use crate::i18n;
use crate::quiz::Question;

pub fn render(app: &App, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
    let lines = lines(app, area.width as usize, area.height as usize);
    super::window::scrolled(app.lang, app.theme, lines, area, scroll, buf)
}

pub fn lines(app: &App, w: usize, h: usize) -> Vec<Line<'static>> {
    if let Some(q) = app.question() {
        let whole = question_lines(app, &q, w);
        if whole.len() <= h {
            return whole;
        }
        // A long real id in the prompt takes a line of its own; shortened
        // like a git hash, the choices fit. The table shows it whole.
        let step = &app.trace().steps[q.step];
        let short = Question {
            prompt: super::ids::shorten_ids(&q.prompt, step),
            ..q
        };
        return question_lines(app, &short, w);
    }
    let lang = app.lang;
    let theme = app.theme;
    let mut out = Vec::new();
    if app.step > 0 {
        match app.quiz.answers.get(&app.step) {
            Some(answer) => {
                // The question asked, as it reads in the current language.
                let q = crate::quiz::asked(&app.loaded, app.trace(), app.step);
                if let Some(q) = q {
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
                out.extend(hanging(
                    vec![],
                    i18n::QUIZ_UNASKED.get(lang),
                    theme.muted(),
                    w,
                ));
            }
        }
    }
    out.extend(
        super::explain::Explain {
            scene: &super::scene::Scene::of(app),
        }
        .lines(w),
    );
    out
}

fn question_lines(app: &App, q: &Question, w: usize) -> Vec<Line<'static>> {
    let lang = app.lang;
    let theme = app.theme;
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
    let max = q.choices.len();
    let (hint, style) = if app.quiz.hint {
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
    out
}
