//! The trace decoder: byte chunks in, requests out. It detects zstd by the
//! frame magic, the format by the file name or, failing that, by the first
//! bytes (text or not), and keeps only a record's or a line's worth of
//! input between chunks (plus zstd's window).
use super::csv::CsvParser;
use super::oracle::OracleParser;
use super::zstd::{is_zstd, ZstdStream};
use super::{Request, TraceError, TraceFormat};

/// Bytes looked at to tell a text trace from a binary one.
const SNIFF_BYTES: usize = 4096;

enum Parser {
    /// Format not known yet: the first bytes, kept until SNIFF_BYTES.
    Sniffing(Vec<u8>),
    Oracle(OracleParser),
    Csv(CsvParser),
}

enum Input {
    /// Not known yet whether compressed: the first bytes, kept until 4.
    Unknown(Vec<u8>),
    Plain,
    Zstd(Box<ZstdStream>),
}

pub struct TraceDecoder {
    input: Input,
    parser: Parser,
    /// Bytes pushed so far (compressed, if the trace is).
    bytes_in: u64,
}

/// A text trace is printable ASCII (or UTF-8) with line breaks; oracleGeneral
/// records hold zero bytes in their high-order halves.
fn looks_like_text(sample: &[u8]) -> bool {
    sample.iter().all(|&c| c == b'\n' || c == b'\r' || c == b'\t' || (0x20..0x7f).contains(&c) || c >= 0x80) && !sample.is_empty()
}

impl TraceDecoder {
    /// A decoder for `format`, or None to detect it (from `name`'s
    /// extension, then from the content).
    pub fn new(format: Option<TraceFormat>, name: &str) -> Self {
        let parser = match format.or_else(|| TraceFormat::from_name(name)) {
            Some(TraceFormat::OracleGeneral) => Parser::Oracle(OracleParser::default()),
            Some(TraceFormat::Csv) => Parser::Csv(CsvParser::default()),
            None => Parser::Sniffing(Vec::new()),
        };
        TraceDecoder { input: Input::Unknown(Vec::new()), parser, bytes_in: 0 }
    }

    /// The format, once known.
    pub fn format(&self) -> Option<TraceFormat> {
        match self.parser {
            Parser::Sniffing(_) => None,
            Parser::Oracle(_) => Some(TraceFormat::OracleGeneral),
            Parser::Csv(_) => Some(TraceFormat::Csv),
        }
    }

    /// Whether the trace is zstd-compressed, once known.
    pub fn compressed(&self) -> Option<bool> {
        match self.input {
            Input::Unknown(_) => None,
            Input::Plain => Some(false),
            Input::Zstd(_) => Some(true),
        }
    }

    /// Bytes pushed so far.
    pub fn bytes_in(&self) -> u64 {
        self.bytes_in
    }

    /// oracleGeneral records skipped for obj_size 0.
    pub fn skipped(&self) -> u64 {
        match &self.parser {
            Parser::Oracle(p) => p.skipped,
            _ => 0,
        }
    }

    /// Decodes a chunk; every complete request goes to `sink`.
    pub fn push(&mut self, data: &[u8], sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        self.bytes_in += data.len() as u64;
        self.input_push(data, false, sink)
    }

    /// The end of the trace: what is left must be whole.
    pub fn finish(&mut self, sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        self.input_push(&[], true, sink)?;
        if let Parser::Sniffing(buf) = &mut self.parser {
            let buf = std::mem::take(buf);
            self.resolve_format(&buf);
            self.parse(&buf, sink)?;
        }
        match &mut self.parser {
            Parser::Oracle(p) => p.finish(),
            Parser::Csv(p) => p.finish(sink),
            Parser::Sniffing(_) => unreachable!("resolved above"),
        }
    }

    fn input_push(&mut self, data: &[u8], eof: bool, sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        if let Input::Unknown(head) = &mut self.input {
            head.extend_from_slice(data);
            if head.len() < 4 && !eof {
                return Ok(());
            }
            let head = std::mem::take(head);
            self.input = if is_zstd(&head) { Input::Zstd(Box::default()) } else { Input::Plain };
            return self.input_push(&head, eof, sink);
        }
        match &mut self.input {
            Input::Plain => self.parse(data, sink),
            Input::Zstd(z) => {
                let parser = &mut self.parser;
                z.push(data, eof, &mut |out| parse_into(parser, out, sink))
            }
            Input::Unknown(_) => unreachable!("resolved above"),
        }
    }

    fn resolve_format(&mut self, sample: &[u8]) {
        self.parser = if looks_like_text(sample) { Parser::Csv(CsvParser::default()) } else { Parser::Oracle(OracleParser::default()) };
    }

    fn parse(&mut self, data: &[u8], sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        parse_into(&mut self.parser, data, sink)
    }
}

/// Hands decompressed bytes to the parser (sniffing the format first if
/// it is not known).
fn parse_into(parser: &mut Parser, data: &[u8], sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
    if let Parser::Sniffing(buf) = parser {
        buf.extend_from_slice(data);
        if buf.len() < SNIFF_BYTES {
            return Ok(());
        }
        let buf = std::mem::take(buf);
        *parser = if looks_like_text(&buf[..SNIFF_BYTES]) { Parser::Csv(CsvParser::default()) } else { Parser::Oracle(OracleParser::default()) };
        return parse_into(parser, &buf, sink);
    }
    match parser {
        Parser::Oracle(p) => p.feed(data, sink),
        Parser::Csv(p) => p.feed(data, sink),
        Parser::Sniffing(_) => unreachable!("handled above"),
    }
}
