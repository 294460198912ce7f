//! Header (where we are, who acts, the counters) and footer (keys, play
//! state, dwell time, progress).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::text::width;
use crate::app::App;
use crate::i18n::{self, lane_name};
use crate::keymap;

pub fn header(app: &App, area: Rect, buf: &mut Buffer) {
    let lang = app.lang;
    let theme = app.theme;
    let trace = app.trace();
    let step = &trace.steps[app.step];
    let c = step.counters;

    let indicator = Span::styled(
        format!(
            " {} {}/{} ",
            i18n::STEP.get(lang),
            app.step + 1,
            trace.len()
        ),
        theme.current_marker(),
    );
    let step_title = Span::styled(i18n::step_title(trace, app.step), theme.current());
    let mut first = Line::from(vec![
        indicator.clone(),
        Span::styled(format!(" {} ", trace.title), theme.title()),
        Span::styled("· ", theme.muted()),
        step_title.clone(),
    ]);
    // On a narrow screen the step's title matters more than the scenario's.
    if first.width() > area.width as usize {
        first = Line::from(vec![indicator, Span::raw(" "), step_title]);
    }

    let actor = match step.from {
        None => i18n::USER.get(lang).to_string(),
        Some(from) => lane_name(from, lang).to_string(),
    };
    let arrow = if step.from == Some(step.to) {
        String::new()
    } else {
        format!(" → {}", lane_name(step.to, lang))
    };
    let actor_style = match step.from {
        None => theme.user(),
        Some(lane) => theme.lane_style(lane),
    };
    let end = match step.end {
        Some(end) => Span::styled(
            format!("■ {}", i18n::end_name(end, lang)),
            theme.current_marker(),
        ),
        None => Span::styled(i18n::RUNNING_LOOP.get(lang), theme.muted()),
    };
    let counters = |short: bool| {
        let zh = lang == crate::scenario::Lang::Zh;
        if !short {
            format!(
                "{} {}/{} · {} {} · {} {} · {} {} {}",
                i18n::MODEL_CALLS.get(lang),
                c.model_calls,
                trace.budget,
                i18n::TOOL_RUNS.get(lang),
                c.tool_runs,
                i18n::WRITES.get(lang),
                c.writes,
                i18n::CONTEXT_SIZE.get(lang),
                c.context_size,
                i18n::CHARS.get(lang),
            )
        } else if zh {
            format!(
                "调用 {}/{} · 工具 {} · 写入 {} · 上下文 {}",
                c.model_calls, trace.budget, c.tool_runs, c.writes, c.context_size
            )
        } else {
            format!(
                "calls {}/{} · tools {} · writes {} · ctx {}",
                c.model_calls, trace.budget, c.tool_runs, c.writes, c.context_size
            )
        }
    };
    let status_line = |short: bool| {
        let acting = if short {
            String::new()
        } else {
            format!("{}: ", i18n::ACTING.get(lang))
        };
        Line::from(vec![
            Span::raw(" "),
            Span::styled(acting, theme.muted()),
            Span::styled(
                format!("{actor}{arrow}"),
                actor_style.add_modifier(Modifier::BOLD),
            ),
            Span::styled(" │ ", theme.muted()),
            Span::raw(counters(short)),
            Span::styled(" │ ", theme.muted()),
            end.clone(),
        ])
    };
    // Narrow screens get the short counters rather than losing the end.
    let full = status_line(false);
    let second = if full.width() > area.width as usize {
        status_line(true)
    } else {
        full
    };
    super::draw_lines(&[first, second], area, buf);
}

pub fn footer(app: &App, area: Rect, buf: &mut Buffer) {
    let lang = app.lang;
    let theme = app.theme;
    let trace = app.trace();
    let room = area.width as usize;

    // Key hints in keymap order; help and quit are always kept.
    let hints = keymap::footer_hints(lang);
    let pieces: Vec<String> = hints.iter().map(|(k, l)| format!("{k} {l}")).collect();
    let (must, optional): (Vec<_>, Vec<_>) = pieces
        .iter()
        .enumerate()
        .partition(|(i, _)| *i + 2 >= pieces.len());
    let reserved: usize = must.iter().map(|(_, p)| width(p) + 2).sum::<usize>() + 1;
    let mut keys = vec![Span::raw(" ")];
    let mut used = reserved;
    for (_, p) in optional {
        if used + width(p) + 2 > room {
            break;
        }
        used += width(p) + 2;
        keys.push(Span::styled(p.clone(), theme.muted()));
        keys.push(Span::raw("  "));
    }
    for (_, p) in must {
        keys.push(Span::styled(p.clone(), theme.muted()));
        keys.push(Span::raw("  "));
    }

    let state = if app.playing {
        i18n::PLAYING
    } else {
        i18n::PAUSED
    };
    let left = format!(
        " {} · {} {:.1}s · {}: {} ",
        state.get(lang),
        i18n::DWELL.get(lang),
        f64::from(app.dwell_ms) / 1000.0,
        i18n::FOCUS.get(lang),
        super::panel_title(app.focus).get(lang),
    );
    let counter = format!(" {}/{} ", app.step + 1, trace.len());
    let bar_room = room.saturating_sub(width(&left) + width(&counter) + 1);
    let filled = if trace.len() <= 1 {
        bar_room
    } else {
        bar_room * app.step / (trace.len() - 1)
    };
    let status = Line::from(vec![
        Span::styled(
            left,
            if app.playing {
                theme.current_marker()
            } else {
                theme.current()
            },
        ),
        Span::styled("━".repeat(filled), theme.current()),
        Span::styled("─".repeat(bar_room - filled), theme.muted()),
        Span::styled(counter, theme.current()),
    ]);
    super::draw_lines(&[Line::from(keys), status], area, buf);
}
