//! Sweep charts, drawn with plotters: throughput, CPU and latency percentiles against the swept
//! parameter, each as SVG and PNG. Text needs a TrueType font: DejaVu Sans or Liberation Sans
//! from the system, or the file FERRY_CHART_FONT names.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::sweep::SweepReport;

/// A chart: one x axis, several named lines.
#[derive(Debug, Clone)]
pub struct Chart {
    /// File name without extension.
    pub name: String,
    /// Title.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// X values.
    pub xs: Vec<f64>,
    /// (label, y values).
    pub series: Vec<(String, Vec<f64>)>,
}

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(127, 127, 127),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
];

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, c: &Chart) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| format!("drawing {}: {e:?}", c.name);
    root.fill(&WHITE).map_err(err)?;
    let x_max = c.xs.iter().cloned().fold(1.0f64, f64::max) * 1.05;
    let x_min = c.xs.iter().cloned().fold(x_max, f64::min).min(0.0);
    let y_max = c
        .series
        .iter()
        .flat_map(|(_, ys)| ys.iter().cloned())
        .fold(1.0f64, f64::max)
        * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption(&c.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(x_min..x_max, 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .x_label_formatter(&|v| {
            if v.fract().abs() < 1e-9 {
                format!("{v:.0}")
            } else {
                format!("{v:.2}")
            }
        })
        .y_label_formatter(&|v| crate::report::fmt_rate(*v))
        .draw()
        .map_err(err)?;
    for (i, (label, ys)) in c.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points: Vec<(f64, f64)> = c.xs.iter().cloned().zip(ys.iter().cloned()).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, 4, colour.filled())))
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

/// Registers a TrueType font for chart text; returns whether one was found.
fn font() -> bool {
    use std::sync::OnceLock;
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let mut candidates: Vec<PathBuf> = std::env::var_os("FERRY_CHART_FONT")
            .map(PathBuf::from)
            .into_iter()
            .collect();
        candidates.extend(
            [
                "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                "/usr/share/fonts/TTF/DejaVuSans.ttf",
                "/usr/share/fonts/dejavu/DejaVuSans.ttf",
                "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
            ]
            .iter()
            .map(PathBuf::from),
        );
        for p in candidates {
            if let Ok(bytes) = std::fs::read(&p) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

/// Writes `c` as `DIR/NAME.svg` and, when a font is available, `DIR/NAME.png`. Returns the
/// files written.
pub fn write(dir: &Path, c: &Chart) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    // Laying out text needs a font's metrics, for SVG as much as for PNG.
    if !font() {
        return Err(
            "charts need a TrueType font: install DejaVu Sans (Debian: fonts-dejavu-core) or set FERRY_CHART_FONT to a .ttf file"
                .into(),
        );
    }
    let mut written = Vec::new();
    let svg = dir.join(format!("{}.svg", c.name));
    draw(SVGBackend::new(&svg, (900, 560)).into_drawing_area(), c)?;
    written.push(svg);
    let png = dir.join(format!("{}.png", c.name));
    draw(BitMapBackend::new(&png, (900, 560)).into_drawing_area(), c)?;
    written.push(png);
    Ok(written)
}

/// The three charts of a sweep.
pub fn sweep_charts(s: &SweepReport) -> Vec<Chart> {
    let xs: Vec<f64> = s
        .steps
        .iter()
        .enumerate()
        .map(|(i, st)| {
            crate::args::parse_size(&st.value)
                .map(|v| v as f64)
                .or_else(|_| st.value.parse::<f64>())
                .unwrap_or(i as f64)
        })
        .collect();
    let x_label = s.parameter.clone();
    let r = |f: &dyn Fn(&crate::report::Results) -> f64| -> Vec<f64> {
        s.steps.iter().map(|st| f(&st.report.results)).collect()
    };
    let wl = s
        .steps
        .first()
        .map_or("", |st| st.report.workload.name())
        .to_owned();
    vec![
        Chart {
            name: "throughput".into(),
            title: format!("{wl}: throughput against {x_label}"),
            x_label: x_label.clone(),
            y_label: "operations per second".into(),
            xs: xs.clone(),
            series: vec![("rate".into(), r(&|x| x.rate_per_s))],
        },
        Chart {
            name: "cpu".into(),
            title: format!("{wl}: CPU against {x_label}"),
            x_label: x_label.clone(),
            y_label: "% of one core".into(),
            xs: xs.clone(),
            series: vec![
                ("queue manager".into(), r(&|x| x.qm_cpu_pct.unwrap_or(0.0))),
                ("harness".into(), r(&|x| x.harness_cpu_pct.unwrap_or(0.0))),
            ],
        },
        Chart {
            name: "latency".into(),
            title: format!("{wl}: latency percentiles against {x_label}"),
            x_label,
            y_label: "microseconds".into(),
            xs,
            series: vec![
                ("p50".into(), r(&|x| x.latency.p50_us as f64)),
                ("p90".into(), r(&|x| x.latency.p90_us as f64)),
                ("p99".into(), r(&|x| x.latency.p99_us as f64)),
                ("p99.9".into(), r(&|x| x.latency.p999_us as f64)),
            ],
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_is_written_as_svg_with_its_title_and_lines() {
        let dir = std::env::temp_dir().join(format!("ferry-chart-{}", std::process::id()));
        let c = Chart {
            name: "t".into(),
            title: "throughput against threads".into(),
            x_label: "threads".into(),
            y_label: "ops/s".into(),
            xs: vec![1.0, 2.0, 4.0],
            series: vec![("rate".into(), vec![100.0, 190.0, 350.0])],
        };
        let files = write(&dir, &c).unwrap();
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        assert!(svg.contains("<svg") && svg.contains("throughput against threads"));
        assert!(svg.contains("polyline") || svg.contains("path"));
        let png = std::fs::read(&files[1]).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
