//! The plain CSV/text trace form, read as a stream: one request per line,
//!
//! - `obj_id`, or
//! - `time,obj_id`, `time,obj_id,size`, `time,obj_id,op` or
//!   `time,obj_id,size,op`,
//!
//! with fields separated by commas (or, on a line without commas, by spaces
//! or tabs). `obj_id` and `size` are whole numbers, `time` a number; `op`
//! (get, set, read, write, ...) is any word. A first line whose fields are
//! all words is a header; blank lines and lines starting with `#` are
//! skipped. Time and op are checked and ignored: every request is a read.
use super::{Location, Request, TraceError};

/// Lines longer than this are an error (most likely a binary file).
pub const MAX_LINE: usize = 4096;

#[derive(Clone, Debug, Default)]
pub struct CsvParser {
    /// The part of a line cut by a chunk boundary.
    partial: Vec<u8>,
    /// Lines completed so far (the number of the line being read is line + 1).
    line: u64,
    /// Whether a line with content has been seen (a header may only come first).
    seen_content: bool,
    /// Requests read so far.
    requests: u64,
    pub header: bool,
}

/// Why a field that parse_u64 refused is no id or size: digits past
/// u64::MAX are too large, anything else is not a whole number.
fn not_whole(f: &[u8]) -> String {
    if !f.is_empty() && f.iter().all(u8::is_ascii_digit) {
        format!("is too large: at most {}", u64::MAX)
    } else {
        "is not a whole number".into()
    }
}

/// A whole number of ASCII digits (u64), or None.
#[inline]
fn parse_u64(f: &[u8]) -> Option<u64> {
    if f.is_empty() || f.len() > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for &c in f {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(v)
}

fn is_number(f: &[u8]) -> bool {
    parse_u64(f).is_some() || std::str::from_utf8(f).ok().and_then(|s| s.parse::<f64>().ok()).is_some_and(f64::is_finite)
}

fn show(f: &[u8]) -> String {
    // Control characters escaped (a binary file read as CSV stays one printable line).
    let s = String::from_utf8_lossy(f);
    let shown: String = s.chars().take(40).flat_map(char::escape_debug).collect();
    if s.chars().count() > 40 {
        format!("\"{shown}...\"")
    } else {
        format!("\"{shown}\"")
    }
}

/// Splits a line at commas (or, without commas, at runs of blanks) into
/// up to `out.len()` trimmed fields; returns how many there are (counting
/// past `out.len()` stops at `out.len()`).
fn split_fields<'a>(line: &'a [u8], out: &mut [&'a [u8]; 5]) -> usize {
    let mut n = 0;
    let mut push = |f: &'a [u8], n: &mut usize| {
        if *n < out.len() {
            out[*n] = trim(f);
        }
        *n += 1;
    };
    if line.contains(&b',') {
        for f in line.split(|&c| c == b',') {
            push(f, &mut n);
        }
    } else {
        for f in line.split(|c| c.is_ascii_whitespace()).filter(|f| !f.is_empty()) {
            push(f, &mut n);
        }
    }
    n.min(out.len())
}

fn trim(mut f: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = f {
        if first.is_ascii_whitespace() {
            f = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = f {
        if last.is_ascii_whitespace() {
            f = rest;
        } else {
            break;
        }
    }
    f
}

impl CsvParser {
    /// One complete line (without its newline).
    fn line(&mut self, raw: &[u8], sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        self.line += 1;
        let at = Location::Line(self.line);
        let line = trim(raw);
        if line.is_empty() || line[0] == b'#' {
            return Ok(());
        }
        // A control character (other than a tab) or a zero byte: binary data, not a line of text.
        if let Some(&c) = line.iter().find(|&&c| (c < 0x20 && c != b'\t') || c == 0x7f) {
            let whole = if self.requests == 0 { "this does not look like a text trace: " } else { "" };
            return Err(TraceError::new(at, format!("{whole}byte 0x{c:02x} is binary data, not text (expected lines of obj_id or time,obj_id[,size][,op])")));
        }
        let mut fields = [&b""[..]; 5];
        let n = split_fields(line, &mut fields);
        let first_content = !self.seen_content;
        self.seen_content = true;
        // No number among the fields: the header, if it comes first and has up to 4 words; else, with
        // more than one field, prose rather than a request.
        if fields[..n].iter().all(|f| !is_number(f)) {
            if first_content && n <= 4 && fields[..n].iter().all(|f| !f.is_empty()) {
                self.header = true;
                return Ok(());
            }
            if n > 1 {
                let whole = if self.requests == 0 { "; this does not look like a text trace" } else { "" };
                return Err(TraceError::new(at, format!("{} is words, not a request (expected obj_id or time,obj_id[,size][,op]){whole}", show(line))));
            }
        }
        if n > 4 {
            return Err(TraceError::new(at, "more than 4 fields (expected obj_id or time,obj_id[,size][,op])"));
        }
        let fields = &fields[..n];
        let id_field = if n == 1 { fields[0] } else { fields[1] };
        let Some(obj_id) = parse_u64(id_field) else {
            return Err(TraceError::new(at, format!("obj_id {} {}", show(id_field), not_whole(id_field))));
        };
        self.requests += 1;
        if n == 1 {
            sink(Request { obj_id, size: 0 });
            return Ok(());
        }
        if !is_number(fields[0]) {
            return Err(TraceError::new(at, format!("time {} is not a number", show(fields[0]))));
        }
        let size = match n {
            2 => 0,
            3 if !is_number(fields[2]) => 0,
            _ => parse_u64(fields[2]).ok_or_else(|| TraceError::new(at, format!("size {} {} of bytes", show(fields[2]), not_whole(fields[2]))))?,
        };
        if n == 4 && (fields[3].is_empty() || is_number(fields[3])) {
            return Err(TraceError::new(at, format!("op {} is not a word (get, set, read, write, ...)", show(fields[3]))));
        }
        sink(Request { obj_id, size });
        Ok(())
    }

    pub fn feed(&mut self, data: &[u8], sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        let mut rest = data;
        while let Some(nl) = rest.iter().position(|&c| c == b'\n') {
            let (head, tail) = rest.split_at(nl);
            rest = &tail[1..];
            if self.partial.is_empty() {
                self.check_len(head.len())?;
                self.line(head, sink)?;
            } else {
                self.partial.extend_from_slice(head);
                self.check_len(self.partial.len())?;
                let line = std::mem::take(&mut self.partial);
                self.line(&line, sink)?;
                self.partial = line;
                self.partial.clear();
            }
        }
        self.partial.extend_from_slice(rest);
        self.check_len(self.partial.len())
    }

    fn check_len(&self, len: usize) -> Result<(), TraceError> {
        if len > MAX_LINE {
            return Err(TraceError::new(
                Location::Line(self.line + 1),
                format!("longer than {MAX_LINE} bytes: not a text trace (a binary trace is read with the format oracleGeneral: --format on the command line, Format on the page)"),
            ));
        }
        Ok(())
    }

    /// The end of the trace: a last line without a newline still counts.
    pub fn finish(&mut self, sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(&line, sink)?;
        }
        Ok(())
    }

    /// Lines read so far.
    pub fn lines(&self) -> u64 {
        self.line
    }
}
