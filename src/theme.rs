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

/// An sRGB colour for figures (SVG) where no terminal supplies the palette.
pub type Rgb = (u8, u8, u8);

/// Named colours in ratatui order: Black, Red, Green, Yellow, Blue, Magenta,
/// Cyan, Gray, DarkGray, LightRed, LightGreen, LightYellow, LightBlue,
/// LightMagenta, LightCyan, White (ANSI 0–15).
type Palette16 = [Rgb; 16];

/// Dark figures: a calm terminal palette on a near-black page.
const DARK_RGB: Palette16 = [
    (0x1f, 0x22, 0x28),
    (0xe0, 0x6c, 0x75),
    (0x98, 0xc3, 0x79),
    (0xe5, 0xc0, 0x7b),
    (0x61, 0xaf, 0xef),
    (0xc6, 0x78, 0xdd),
    (0x56, 0xb6, 0xc2),
    (0xb4, 0xba, 0xc4),
    (0x73, 0x7b, 0x88),
    (0xff, 0x8f, 0x98),
    (0xb8, 0xe6, 0x94),
    (0xff, 0xdc, 0x8c),
    (0x8f, 0xc8, 0xff),
    (0xe2, 0x9e, 0xf5),
    (0x84, 0xdd, 0xe8),
    (0xf4, 0xf5, 0xf7),
];
const DARK_PAGE: (Rgb, Rgb) = ((0xdc, 0xdf, 0xe4), (0x1f, 0x22, 0x28));

/// Light figures are for printing on white paper: every colour is dark
/// enough to read as text and to survive a greyscale printer; no pale
/// yellow or cyan. "Gray" (history, idle borders) stays a mid grey.
const LIGHT_RGB: Palette16 = [
    (0x1a, 0x1a, 0x1a),
    (0xb0, 0x1e, 0x1e),
    (0x1b, 0x6e, 0x2e),
    (0x8a, 0x5a, 0x00),
    (0x1f, 0x4f, 0xb0),
    (0x8b, 0x25, 0xa8),
    (0x00, 0x6a, 0x78),
    (0x66, 0x66, 0x66),
    (0x4d, 0x4d, 0x4d),
    (0xc6, 0x28, 0x28),
    (0x2e, 0x7d, 0x32),
    (0x9a, 0x64, 0x00),
    (0x15, 0x65, 0xc0),
    (0xa0, 0x2c, 0xb8),
    (0x00, 0x7c, 0x89),
    (0xff, 0xff, 0xff),
];
const LIGHT_PAGE: (Rgb, Rgb) = ((0x1a, 0x1a, 0x1a), (0xff, 0xff, 0xff));

impl Theme {
    /// The RGB a figure uses for `color` as a foreground (`is_fg`) or a
    /// background. `Reset` is the page's own text or paper colour. The
    /// plain theme (`NO_COLOR`) is drawn on paper like the light one.
    pub fn rgb(self, color: Color, is_fg: bool) -> Rgb {
        let (palette, (fg, bg)) = match self.kind {
            ThemeKind::Dark => (&DARK_RGB, DARK_PAGE),
            ThemeKind::Light | ThemeKind::Plain => (&LIGHT_RGB, LIGHT_PAGE),
        };
        match color {
            Color::Reset => {
                if is_fg {
                    fg
                } else {
                    bg
                }
            }
            Color::Black => palette[0],
            Color::Red => palette[1],
            Color::Green => palette[2],
            Color::Yellow => palette[3],
            Color::Blue => palette[4],
            Color::Magenta => palette[5],
            Color::Cyan => palette[6],
            Color::Gray => palette[7],
            Color::DarkGray => palette[8],
            Color::LightRed => palette[9],
            Color::LightGreen => palette[10],
            Color::LightYellow => palette[11],
            Color::LightBlue => palette[12],
            Color::LightMagenta => palette[13],
            Color::LightCyan => palette[14],
            Color::White => palette[15],
            Color::Rgb(r, g, b) => (r, g, b),
            Color::Indexed(i) => indexed(palette, i),
        }
    }

    /// The page (paper) colour of a figure: `Reset` as a background.
    pub fn page(self) -> Rgb {
        self.rgb(Color::Reset, false)
    }

    /// How strongly dimmed text (`Modifier::DIM`, earlier steps) shows in a
    /// figure: lighter on screen, but still legible on paper.
    pub fn dim_opacity(self) -> f32 {
        match self.kind {
            ThemeKind::Dark => 0.6,
            ThemeKind::Light | ThemeKind::Plain => 0.75,
        }
    }
}

/// The xterm 256-colour table: 0–15 from the theme, then the 6×6×6 cube and
/// the grey ramp.
fn indexed(palette: &Palette16, i: u8) -> Rgb {
    match i {
        // ANSI 0–7 and bright 8–15 are in the palette's order already.
        0..=15 => palette[i as usize],
        16..=231 => {
            let n = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(n / 36), level((n / 6) % 6), level(n % 6))
        }
        _ => {
            let v = 8 + (i - 232) * 10;
            (v, v, v)
        }
    }
}
