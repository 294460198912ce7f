//! The palette: named ANSI colours only, one per lane. Widgets ask the theme
//! for styles and never name a colour themselves.

use ratatui::style::{Color, Modifier, Style};

use crate::trace::Lane;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeKind {
    /// For terminals and slides on dark backgrounds.
    Dark,
    /// For paper and bright projectors.
    Light,
    /// `NO_COLOR`: emphasis only, no colour.
    Plain,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub kind: ThemeKind,
}

impl Theme {
    pub const DARK: Theme = Theme {
        kind: ThemeKind::Dark,
    };
    pub const LIGHT: Theme = Theme {
        kind: ThemeKind::Light,
    };
    pub const PLAIN: Theme = Theme {
        kind: ThemeKind::Plain,
    };

    fn color(self, dark: Color, light: Color) -> Color {
        match self.kind {
            ThemeKind::Dark => dark,
            ThemeKind::Light => light,
            ThemeKind::Plain => Color::Reset,
        }
    }

    /// The whole screen's base: the terminal's own colours on dark, black
    /// on white for light.
    pub fn base(self) -> Style {
        match self.kind {
            ThemeKind::Light => Style::new().fg(Color::Black).bg(Color::White),
            _ => Style::new(),
        }
    }

    pub fn lane(self, lane: Lane) -> Color {
        match lane {
            Lane::Model => self.color(Color::Magenta, Color::Magenta),
            Lane::Host => self.color(Color::Cyan, Color::Blue),
            Lane::Tool => self.color(Color::Yellow, Color::Red),
        }
    }

    pub fn lane_style(self, lane: Lane) -> Style {
        Style::new().fg(self.lane(lane))
    }

    pub fn user(self) -> Style {
        Style::new().fg(self.color(Color::Green, Color::Green))
    }

    /// Earlier steps: still readable, clearly in the past.
    pub fn history(self) -> Style {
        Style::new()
            .fg(self.color(Color::DarkGray, Color::Gray))
            .add_modifier(Modifier::DIM)
    }

    pub fn current(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn current_marker(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
    }

    pub fn muted(self) -> Style {
        Style::new().fg(self.color(Color::Gray, Color::DarkGray))
    }

    pub fn border(self, focused: bool) -> Style {
        if focused {
            Style::new()
                .fg(self.color(Color::White, Color::Black))
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().fg(self.color(Color::DarkGray, Color::Gray))
        }
    }

    pub fn title(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn ok(self) -> Style {
        Style::new().fg(self.color(Color::Green, Color::Green))
    }

    pub fn error(self) -> Style {
        Style::new()
            .fg(self.color(Color::Red, Color::Red))
            .add_modifier(Modifier::BOLD)
    }

    pub fn new_message(self) -> Style {
        Style::new()
            .fg(self.color(Color::Green, Color::Green))
            .add_modifier(Modifier::BOLD)
    }

    /// Each call id gets its own colour, the same wherever the id appears.
    pub fn call_id(self, id: &str) -> Style {
        const DARK: [Color; 6] = [
            Color::LightCyan,
            Color::LightMagenta,
            Color::LightYellow,
            Color::LightGreen,
            Color::LightBlue,
            Color::LightRed,
        ];
        const LIGHT: [Color; 6] = [
            Color::Blue,
            Color::Magenta,
            Color::Red,
            Color::Green,
            Color::Cyan,
            Color::DarkGray,
        ];
        let n: usize = id
            .rsplit('_')
            .next()
            .and_then(|d| d.parse().ok())
            .unwrap_or(0);
        let i = n.saturating_sub(1) % DARK.len();
        Style::new()
            .fg(self.color(DARK[i], LIGHT[i]))
            .add_modifier(Modifier::BOLD)
    }
}
