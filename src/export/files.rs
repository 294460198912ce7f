//! The files one export writes, a format at a time: `export_loaded` has
//! checked the options and loaded the fonts; each method here names its
//! files and writes them.

use std::ops::RangeInclusive;
use std::path::PathBuf;

use resvg::usvg::fontdb;

use super::formats::{
    GifOptions, ansi_text, extension, html_fonts, write_cast, write_gif, write_html,
};
use super::frame::{Frame, framed, step_of};
use super::{
    ExportError, Options, embed, fonts, handout, html, name, pdf, png, slides, strip, svg, video,
    write,
};
use crate::app::App;
use crate::cli::ExportFormat;
use crate::frames;
use crate::i18n;
use crate::scenario::Lang;

/// One export of figures (not the quiz sheet): what it draws and where.
pub(super) struct Files<'a> {
    pub options: &'a Options,
    pub app: &'a App,
    pub steps: RangeInclusive<usize>,
    /// Loaded for the formats drawn as pixels, and to embed fonts.
    pub fonts: Option<&'a png::Fonts>,
    pub dir: write::Folder<'a>,
}

impl Files<'_> {
    /// Write every file of the export; `done` hears of each as it is on disk.
    pub fn write(&self, done: &mut impl FnMut(PathBuf)) -> Result<(), ExportError> {
        let (app, options, steps) = (self.app, self.options, self.steps.clone());
        let (size, framing) = (options.size, options.framing);
        let stem = self.stem();
        let path = match options.format {
            ExportFormat::Gif => self.gif(&format!("{stem}.gif"))?,
            ExportFormat::Pdf => {
                let quiz = if options.quiz { ".quiz" } else { "" };
                self.pdf(&format!("{stem}{quiz}.pdf"))?
            }
            ExportFormat::Mp4 | ExportFormat::Webm => {
                let name = format!("{stem}.{}", extension(options.format));
                let fonts = self.fonts.expect("fonts are loaded for video");
                video::export(app, options, steps, fonts, &self.dir, &name)?
            }
            ExportFormat::Slides => self.dir.file(&format!("{stem}.slides.html"), |out| {
                slides::deck(app, steps, size, framing, out)
            })?,
            // Not a figure: the request bodies, one model call a line; a
            // sub-agent's own requests, another run, in a file of their own.
            ExportFormat::Requests => {
                let main = self.dir.file(&format!("{stem}.requests.jsonl"), |out| {
                    crate::wire::write_requests(app.trace(), out)
                })?;
                match &app.loaded.sub_agent {
                    None => main,
                    Some(sub) => {
                        done(main);
                        self.dir
                            .file(&format!("{stem}.sub-agent.requests.jsonl"), |out| {
                                crate::wire::write_requests(sub.trace(app.lang), out)
                            })?
                    }
                }
            }
            ExportFormat::Cast => self.dir.file(&format!("{stem}.cast"), |out| {
                write_cast(app, steps, size, framing, options.dwell, out)
            })?,
            ExportFormat::Html => self.html(&format!("{stem}.html"))?,
            format => return self.figures(format, &stem, done),
        };
        done(path);
        Ok(())
    }

    /// The start of every file's name: source, language, run settings, and
    /// for a file of several steps the steps when they are not all.
    fn stem(&self) -> String {
        let (options, app) = (self.options, self.app);
        let mut variant = name::variant(options);
        if super::options::one_file(options.format) {
            variant.push_str(&name::steps_tag(app.steps(), &self.steps));
        }
        format!("{}.{}{variant}", name::source(options), app.lang.code())
    }

    /// The fonts to embed in the file (`--embed-fonts`).
    fn embed_from(&self) -> Option<&fontdb::Database> {
        self.fonts
            .filter(|_| self.options.embed_fonts)
            .map(png::Fonts::db)
    }

    fn gif(&self, name: &str) -> Result<PathBuf, ExportError> {
        let (app, options) = (self.app, self.options);
        let (size, framing) = (options.size, options.framing);
        let fonts = self.fonts.expect("fonts are loaded for GIF");
        let gif = GifOptions {
            dwell: options.dwell,
            scale: options.scale,
        };
        // Checked before the file is opened: a missing font is said
        // as such, not as a write error.
        for index in self.steps.clone() {
            fonts
                .check(&framed(app, index, size, framing).buffer)
                .map_err(ExportError::Missing)?;
        }
        self.dir.file(name, |out| {
            write_gif(app, self.steps.clone(), size, framing, fonts, gif, out)
        })
    }

    fn pdf(&self, name: &str) -> Result<PathBuf, ExportError> {
        let app = self.app;
        let fonts = self.fonts.expect("fonts are loaded for PDF");
        let trace = app.trace();
        let mut handout =
            pdf::Handout::new(fonts, &trace.title, app.lang.code(), app.lang == Lang::Zh)
                .map_err(ExportError::Missing)?;
        if self.options.quiz {
            self.quiz_pages(&mut handout, fonts)?;
        } else {
            self.step_pages(&mut handout, fonts, self.strip_layout())?;
        }
        let bytes = handout.finish().map_err(ExportError::Io)?;
        self.dir.file(name, |out| out.write_all(&bytes))
    }

    /// A step's page in the outline: its number and its title.
    fn step_bookmark(&self, at: usize) -> String {
        let app = self.app;
        format!(
            "{} · {}",
            step_of(app, at),
            i18n::step_title(app.trace(), at)
        )
    }

    /// The quiz: each question after the frame of the step before it (the
    /// situation it asks about, never its answer), then the answer key; no
    /// question or answer is split over two pages.
    fn quiz_pages(
        &self,
        handout: &mut pdf::Handout<'_>,
        fonts: &png::Fonts,
    ) -> Result<(), ExportError> {
        let app = self.app;
        let (size, framing) = (self.options.size, self.options.framing);
        let trace = app.trace();
        let questions = handout::questions(trace, &app.loaded, self.steps.clone());
        let asked = handout::question_blocks(trace, &questions);
        handout.text(
            &handout::heading(trace),
            &i18n::HANDOUT_TITLE.fill(app.lang, &[("title", &trace.title)]),
        );
        for (q, block) in questions.iter().zip(asked) {
            let at = q.step - 1;
            let frame = strip::rows(app, &[at], 1, size, framing);
            fonts.check(&frame.buffer).map_err(ExportError::Missing)?;
            handout
                .figure(
                    &svg::render_for_pdf(&frame, app.theme),
                    None,
                    &self.step_bookmark(at),
                )
                .map_err(|e| ExportError::Io(format!("cannot draw step {}: {e}", q.step)))?;
            handout.blocks(
                &[block],
                &format!("{} {}", i18n::STEP.get(app.lang), q.step),
            );
        }
        handout.blocks(
            &handout::key_blocks(trace, &questions),
            i18n::HANDOUT_KEY.get(app.lang),
        );
        Ok(())
    }

    /// How the steps are laid out on pages: a page a step, or with --strip
    /// each page a strip of the steps that fit it, all at one scale:
    /// (steps a row, steps a page, the scale).
    fn strip_layout(&self) -> (usize, usize, Option<f32>) {
        let size = self.options.size;
        if self.options.strip {
            let (n, rows, scale) =
                pdf::strip_pages(size.0, size.1, strip::STRIP_GAP, strip::ROW_GAP);
            (n, n * rows, Some(scale))
        } else {
            (1, 1, None)
        }
    }

    /// The pages of the steps, laid out as `strip_layout` says.
    fn step_pages(
        &self,
        handout: &mut pdf::Handout<'_>,
        fonts: &png::Fonts,
        (per_row, per_page, at_most): (usize, usize, Option<f32>),
    ) -> Result<(), ExportError> {
        let app = self.app;
        let (size, framing) = (self.options.size, self.options.framing);
        let indices: Vec<usize> = self.steps.clone().collect();
        for page in indices.chunks(per_page) {
            let frame = strip::rows(app, page, per_row, size, framing);
            fonts.check(&frame.buffer).map_err(ExportError::Missing)?;
            let (first, last) = (page[0], page[page.len() - 1]);
            let bookmark = if first == last {
                self.step_bookmark(first)
            } else {
                format!(
                    "{} {}–{}/{}",
                    i18n::STEP.get(app.lang),
                    first + 1,
                    last + 1,
                    app.steps()
                )
            };
            handout
                .figure(&svg::render_for_pdf(&frame, app.theme), at_most, &bookmark)
                .map_err(|e| ExportError::Io(format!("cannot draw step {}: {e}", page[0] + 1)))?;
        }
        Ok(())
    }

    fn html(&self, name: &str) -> Result<PathBuf, ExportError> {
        let (app, options, steps) = (self.app, self.options, self.steps.clone());
        let (size, framing) = (options.size, options.framing);
        let embedded = match self.embed_from() {
            Some(db) => Some(
                html_fonts(app, steps.clone(), size, framing, options.player_only, db)
                    .map_err(ExportError::Missing)?,
            ),
            None => None,
        };
        let page = html::Page {
            dwell: options.dwell,
            fonts: embedded.as_ref(),
            player_only: options.player_only,
            packed: steps.clone().count() > html::PACK_AFTER,
        };
        self.dir.file(name, |out| {
            write_html(app, steps, size, framing, &page, out)
        })
    }

    /// Still figures (SVG, PNG, text, ANSI): one a step, or with --strip
    /// one of all the steps side by side.
    fn figures(
        &self,
        format: ExportFormat,
        stem: &str,
        done: &mut impl FnMut(PathBuf),
    ) -> Result<(), ExportError> {
        let app = self.app;
        let figures: Vec<Vec<usize>> = if self.options.strip {
            vec![self.steps.clone().collect()]
        } else {
            self.steps.clone().map(|i| vec![i]).collect()
        };
        for indices in figures {
            let frame = strip::figure(app, &indices, self.options.size, self.options.framing);
            let (first, last) = (indices[0], indices[indices.len() - 1]);
            let stem = format!("{stem}{}", name::one_or_range(app.steps(), first, last));
            let contents = self.figure(format, &frame, &stem)?;
            let name = format!("{stem}.{}", extension(format));
            done(self.dir.file(&name, |out| out.write_all(&contents))?);
        }
        Ok(())
    }

    /// One still figure's bytes; `stem` names it in an error.
    fn figure(
        &self,
        format: ExportFormat,
        frame: &Frame,
        stem: &str,
    ) -> Result<Vec<u8>, ExportError> {
        let theme = self.app.theme;
        Ok(match format {
            ExportFormat::Svg => match self.embed_from() {
                Some(db) => {
                    let mut used = embed::Used::default();
                    used.add_buffer(&frame.buffer);
                    let embedded = embed::embed(db, &fonts::FONT_FAMILIES, &used)
                        .map_err(ExportError::Missing)?;
                    let fonts = svg::Fonts {
                        embedded: &embedded,
                        with_css: true,
                    };
                    svg::render_with(frame, theme, Some(fonts)).into_bytes()
                }
                None => svg::render(frame, theme).into_bytes(),
            },
            ExportFormat::Txt => frames::to_text(&frame.buffer).into_bytes(),
            ExportFormat::Png => {
                let fonts = self.fonts.expect("fonts are loaded for PNG");
                fonts.check(&frame.buffer).map_err(ExportError::Missing)?;
                fonts
                    .render(&svg::render(frame, theme), self.options.scale)
                    .map_err(|e| ExportError::Io(format!("cannot render {stem}: {e}")))?
            }
            _ => ansi_text(&frame.buffer).into_bytes(),
        })
    }
}
