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

    /// A mark the simulator draws beside a message (✗ a failed result,
    /// ✂ the host's replacement): reversed, so it never reads as part of
    /// the text that was sent.
    pub fn sim_mark(self, error: bool) -> Style {
        let base = if error { self.error() } else { self.muted() };
        base.add_modifier(Modifier::REVERSED)
    }

    pub fn new_message(self) -> Style {
        Style::new()
            .fg(self.color(Color::Green, Color::Green))
            .add_modifier(Modifier::BOLD)
    }

    /// The colour of the call id at `place` in its trace's order of ids
    /// (`Trace::id_place`): ids in turn take the palette's colours, so two
    /// ids side by side differ, however opaque they are. The same id has the
    /// same colour wherever it appears. Sequential ids keep their number's
    /// colour: `call_n` is the n-th.
    pub fn call_id(self, place: usize) -> Style {
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
        let i = place % DARK.len();
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
    // DarkGray: the dimmed past steps are drawn in it; bright enough that
    // they keep 4.5:1 against the page after dimming (see the tests).
    (0x95, 0x9d, 0xa9),
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
/// yellow or cyan. "Gray" (history, idle borders) stays a mid grey. The
/// lane colours (Model magenta, Host blue, Tool red) are three greys apart
/// in print, dark to light (see the tests); their lines are also solid,
/// dashed and dotted in the SVG.
const LIGHT_RGB: Palette16 = [
    (0x1a, 0x1a, 0x1a),
    (0xcc, 0x33, 0x00),
    (0x1b, 0x6e, 0x2e),
    (0x8a, 0x5a, 0x00),
    (0x1f, 0x4f, 0xb0),
    (0x4b, 0x12, 0x66),
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

    /// The text colour of a figure: `Reset` as a foreground.
    pub fn page_fg(self) -> Rgb {
        self.rgb(Color::Reset, true)
    }

    /// The 16 named colours of a figure, in ANSI order (0–15).
    pub fn palette16(self) -> [Rgb; 16] {
        match self.kind {
            ThemeKind::Dark => DARK_RGB,
            ThemeKind::Light | ThemeKind::Plain => LIGHT_RGB,
        }
    }

    /// How strongly dimmed text (`Modifier::DIM`, earlier steps) shows in a
    /// figure: fainter than the current step, still at least 4.5:1 against
    /// the page (WCAG AA for text), so a projector shows it.
    pub fn dim_opacity(self) -> f32 {
        match self.kind {
            ThemeKind::Dark => 0.85,
            ThemeKind::Light | ThemeKind::Plain => 0.9,
        }
    }
}

/// WCAG 2 contrast ratio of two sRGB colours (1 to 21).
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    fn luminance((r, g, b): Rgb) -> f64 {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// `fg` drawn at `opacity` over `bg`, as a figure shows dimmed text.
pub fn blend(fg: Rgb, bg: Rgb, opacity: f32) -> Rgb {
    let mix =
        |f: u8, b: u8| (f32::from(f) * opacity + f32::from(b) * (1.0 - opacity)).round() as u8;
    (mix(fg.0, bg.0), mix(fg.1, bg.1), mix(fg.2, bg.2))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimmed_past_steps_keep_text_contrast_in_both_figure_themes() {
        for theme in [Theme::DARK, Theme::LIGHT] {
            let style = theme.history();
            assert!(style.add_modifier.contains(Modifier::DIM));
            let fg = theme.rgb(style.fg.unwrap_or(Color::Reset), true);
            let shown = blend(fg, theme.page(), theme.dim_opacity());
            let ratio = contrast(shown, theme.page());
            assert!(ratio >= 4.5, "{theme:?}: dimmed text at {ratio:.2}:1");
            // Still clearly fainter than the current step's text.
            assert!(contrast(theme.page_fg(), theme.page()) > ratio * 1.8);
        }
    }

    #[test]
    fn light_lane_colours_stay_apart_in_a_greyscale_print() {
        let theme = Theme::LIGHT;
        let page = theme.page();
        let [model, host, tool] = Lane::ALL.map(|lane| theme.rgb(theme.lane(lane), true));
        for (lane, rgb) in [("model", model), ("host", host), ("tool", tool)] {
            let ratio = contrast(rgb, page);
            assert!(ratio >= 4.5, "{lane} as text on paper: {ratio:.2}:1");
        }
        // Dark to light, each step a visible difference of grey (the same
        // colour gives 1:1; before this change the three were 1.04–1.09:1).
        for (a, b) in [(model, host), (host, tool)] {
            let ratio = contrast(a, b);
            assert!(
                ratio >= 1.4,
                "{a:?} and {b:?} are {ratio:.2}:1 apart in grey"
            );
        }
        assert!(contrast(model, tool) >= 2.5);
    }

    #[test]
    fn contrast_matches_known_values() {
        assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
        assert!((contrast((0x77, 0x77, 0x77), (255, 255, 255)) - 4.48).abs() < 0.01);
        assert_eq!(blend((255, 255, 255), (0, 0, 0), 0.5), (128, 128, 128));
    }
}
