//! The report as a small document model (headings, paragraphs, lists, tables, images)
//! written twice from the same blocks: as Markdown (`report.md`, for the repository) and
//! as a standalone HTML page (`report.html`, for a browser).

use std::fmt::Write as _;

/// One block of the report.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A heading of level 1-3, with the anchor it can be linked by.
    Heading(u8, String),
    /// A paragraph (inline `code` and **bold** as in Markdown).
    Paragraph(String),
    /// A bulleted list.
    List(Vec<String>),
    /// A table: header, rows.
    Table(Vec<String>, Vec<Vec<String>>),
    /// An image: path relative to the report, alternative text.
    Image(String, String),
}

/// The report as Markdown.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                let _ = writeln!(out, "{} {text}\n", "#".repeat(usize::from(*level)));
            }
            Block::Paragraph(text) => {
                let _ = writeln!(out, "{text}\n");
            }
            Block::List(items) => {
                for i in items {
                    let _ = writeln!(out, "- {i}");
                }
                out.push('\n');
            }
            Block::Table(header, rows) => {
                let cells = |row: &[String]| {
                    row.iter()
                        .map(|c| c.replace('|', "\\|"))
                        .collect::<Vec<_>>()
                        .join(" | ")
                };
                let _ = writeln!(out, "| {} |", cells(header));
                let _ = writeln!(out, "|{}", "---|".repeat(header.len()));
                for r in rows {
                    let _ = writeln!(out, "| {} |", cells(r));
                }
                out.push('\n');
            }
            Block::Image(path, alt) => {
                let _ = writeln!(out, "![{alt}]({path})\n");
            }
        }
    }
    out
}

/// The report as an HTML page titled `title`.
pub fn html(title: &str, blocks: &[Block]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>\nbody {{ font-family: sans-serif; max-width: 60em; \
         margin: 2em auto; padding: 0 1em; line-height: 1.4; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; }}\n\
         th, td {{ border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; }}\n\
         th {{ background: #eee; }}\nimg {{ max-width: 100%; }}\n\
         code {{ background: #f4f4f4; padding: 0 0.2em; }}\n</style>\n</head>\n<body>\n",
        escape(title)
    );
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                let _ = writeln!(out, "<h{level}>{}</h{level}>", inline(text));
            }
            Block::Paragraph(text) => {
                let _ = writeln!(out, "<p>{}</p>", inline(text));
            }
            Block::List(items) => {
                out.push_str("<ul>\n");
                for i in items {
                    let _ = writeln!(out, "<li>{}</li>", inline(i));
                }
                out.push_str("</ul>\n");
            }
            Block::Table(header, rows) => {
                out.push_str("<table>\n<tr>");
                for h in header {
                    let _ = write!(out, "<th>{}</th>", inline(h));
                }
                out.push_str("</tr>\n");
                for r in rows {
                    out.push_str("<tr>");
                    for c in r {
                        let _ = write!(out, "<td>{}</td>", inline(c));
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</table>\n");
            }
            Block::Image(path, alt) => {
                let _ = writeln!(
                    out,
                    "<p><img src=\"{}\" alt=\"{}\"></p>",
                    escape(path),
                    escape(alt)
                );
            }
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escapes `text`, then turns Markdown's `code` and **bold** into their tags.
fn inline(text: &str) -> String {
    let escaped = escape(text);
    let mut out = String::new();
    let mut code = false;
    let mut bold = false;
    let mut rest = escaped.as_str();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('`') {
            out.push_str(if code { "</code>" } else { "<code>" });
            code = !code;
            rest = r;
        } else if let (false, Some(r)) = (code, rest.strip_prefix("**")) {
            out.push_str(if bold { "</strong>" } else { "<strong>" });
            bold = !bold;
            rest = r;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if code {
        out.push_str("</code>");
    }
    if bold {
        out.push_str("</strong>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Block> {
        vec![
            Block::Heading(2, "1. Ping <latency>".into()),
            Block::Paragraph("Run `airq compare` — **reproduced**".into()),
            Block::List(vec!["a | b".into()]),
            Block::Table(
                vec!["metric".into(), "ours".into()],
                vec![vec!["x|y".into(), "1 ± 2".into()]],
            ),
            Block::Image("01/plot.png".into(), "CDF".into()),
        ]
    }

    #[test]
    fn markdown_escapes_table_pipes_only() {
        let md = markdown(&sample());
        assert!(md.contains("## 1. Ping <latency>\n"));
        assert!(md.contains("| x\\|y | 1 ± 2 |"));
        assert!(md.contains("- a | b\n"));
        assert!(md.contains("![CDF](01/plot.png)"));
    }

    #[test]
    fn html_escapes_and_renders_inline_markup() {
        let page = html("Report", &sample());
        assert!(page.contains("<h2>1. Ping &lt;latency&gt;</h2>"));
        assert!(page.contains("Run <code>airq compare</code> — <strong>reproduced</strong>"));
        assert!(page.contains("<td>x|y</td>"));
        assert!(page.contains("<img src=\"01/plot.png\" alt=\"CDF\">"));
        assert!(page.ends_with("</html>\n"));
    }
}
