//! `--class` on the projector: the join panel (the QR code the phones
//! scan, and its address as text) and, in the quiz panel, how many have
//! answered and, once revealed, a bar per choice with its count, the
//! right one marked in words.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Widget};

use super::text::{hanging, width};
use crate::class::Class;
use crate::class::server::Unopened;
use crate::i18n;
use crate::quiz::Question;
use crate::scenario::Lang;
use crate::theme::Theme;

/// The join panel over the whole screen.
pub struct Join<'a> {
    pub class: &'a Class,
    pub lang: Lang,
    pub theme: Theme,
}

impl Join<'_> {
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        buf.set_style(area, self.theme.base());
        let w = area.width as usize;
        let lines = match &self.class.join {
            Ok(url) => self.joining(url, area),
            Err(why) => {
                let mut out = hanging(
                    vec![],
                    i18n::CLASS_UNOPENED.get(self.lang),
                    self.theme.error(),
                    w,
                );
                out.extend(hanging(vec![], &unopened(why, self.lang), Style::new(), w));
                out.extend(hanging(
                    vec![],
                    i18n::CLASS_CLOSE.get(self.lang),
                    self.theme.muted(),
                    w,
                ));
                out
            }
        };
        for (y, line) in (area.top()..area.bottom()).zip(lines) {
            let x = area.x + (area.width.saturating_sub(line.width() as u16)) / 2;
            buf.set_line(x, y, &line, area.width);
        }
    }

    /// The title, the code with the widest quiet zone that fits, the
    /// address and how many are connected.
    fn joining(&self, url: &str, area: Rect) -> Vec<Line<'static>> {
        let (lang, theme) = (self.lang, self.theme);
        let w = area.width as usize;
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let mut out = hanging(vec![], i18n::CLASS_JOIN_TITLE.get(lang), theme.title(), w);
        let foot = i18n::CLASS_JOIN_FOOT.fill(lang, &[("n", &self.class.present)]);
        let below = 2 + out.len();
        let fits = [4, 2, 1].into_iter().find_map(|quiet| {
            let rows = crate::class::qr::rows(url, quiet)?;
            let wide = rows.first().map_or(0, |r| width(r));
            (rows.len() + below <= area.height as usize && wide <= w).then_some(rows)
        });
        // Light modules are the block, white on black on any theme.
        let code = Style::new().fg(Color::White).bg(Color::Black);
        match fits {
            Some(rows) => out.extend(rows.into_iter().map(|r| Line::styled(r, code))),
            None => out.extend(hanging(
                vec![],
                i18n::CLASS_TOO_SMALL.get(lang),
                theme.error(),
                w,
            )),
        }
        out.push(Line::styled(url.to_string(), bold));
        out.extend(hanging(vec![], &foot, theme.muted(), w));
        out
    }
}

/// Why the room did not open, in `lang`.
pub fn unopened(why: &Unopened, lang: Lang) -> String {
    match why {
        Unopened::NoNetwork => i18n::CLASS_NO_NETWORK.get(lang).to_string(),
        Unopened::PortInUse(port) => {
            let other = port.wrapping_add(1).max(1024);
            i18n::CLASS_PORT_IN_USE.fill(lang, &[("port", port), ("other", &other)])
        }
        Unopened::NotHere(ip) => i18n::CLASS_NOT_HERE.fill(lang, &[("ip", ip)]),
        Unopened::Other(why) => i18n::CLASS_OTHER.fill(lang, &[("why", why)]),
    }
}

/// Under an open question: how many have answered (of those connected),
/// and the teacher's keys.
pub fn answered_lines(
    class: &Class,
    q: &Question,
    lang: Lang,
    theme: Theme,
    w: usize,
) -> Vec<Line<'static>> {
    let round = class.round(q.step);
    let k = class.answered(q.step, round);
    // Everyone who answered is counted as present, even with the page closed.
    let n = (class.present as u32).max(k);
    let line = match round {
        1 => i18n::CLASS_ANSWERED.fill(lang, &[("k", &k), ("n", &n)]),
        _ => {
            let first = class.answered(q.step, 1);
            i18n::CLASS_ROUND_TWO.fill(lang, &[("k", &k), ("n", &n), ("first", &first)])
        }
    };
    let mut out = hanging(vec![], &line, theme.title(), w);
    // A second round opens once: v is not offered again.
    let keys = match round {
        1 => i18n::CLASS_KEYS,
        _ => i18n::CLASS_KEYS_ROUND_TWO,
    };
    out.extend(hanging(vec![], keys.get(lang), theme.muted(), w));
    out
}

/// The revealed split: per choice its text, then a bar and count per
/// round ("first vote → after discussion"), the right one marked in words.
pub fn split_lines(
    rounds: &[Vec<u32>],
    q: &Question,
    lang: Lang,
    theme: Theme,
    w: usize,
) -> Vec<Line<'static>> {
    let total = |r: &Vec<u32>| r.iter().sum::<u32>();
    let heading = match rounds {
        [first, after] => {
            i18n::CLASS_SPLIT_TWO.fill(lang, &[("first", &total(first)), ("k", &total(after))])
        }
        [one, ..] => i18n::CLASS_SPLIT.fill(lang, &[("k", &total(one))]),
        [] => i18n::CLASS_SPLIT.fill(lang, &[("k", &0)]),
    };
    let mut out = hanging(vec![], &heading, theme.title(), w);
    let most = rounds.iter().flatten().copied().max().unwrap_or(0).max(1);
    // Room for the bars: the line less the indent, the counts and the arrow.
    let bar_room = (w.saturating_sub(14) / rounds.len().max(1)).clamp(1, 30) as u32;
    for (i, choice) in q.choices.iter().enumerate() {
        let right = i == q.answer;
        let mut text = choice.clone();
        if right {
            text = format!("{text}  {}", i18n::CLASS_RIGHT_MARK.get(lang));
        }
        let style = if right {
            theme.ok().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        out.extend(hanging(
            vec![Span::styled(format!(" [{}] ", i + 1), theme.current())],
            &text,
            style,
            w,
        ));
        let mut spans = vec![Span::raw("     ")];
        for (r, counts) in rounds.iter().enumerate() {
            let k = counts.get(i).copied().unwrap_or(0);
            if r > 0 {
                spans.push(Span::styled(" → ", theme.muted()));
            }
            let bar = (k * bar_room).div_ceil(most) as usize;
            spans.push(Span::styled(
                "█".repeat(bar),
                if right { theme.ok() } else { theme.muted() },
            ));
            spans.push(Span::raw(format!(" {k}")));
        }
        out.push(Line::from(spans));
    }
    out
}
