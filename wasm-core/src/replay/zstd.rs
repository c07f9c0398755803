//! zstd-compressed traces, decompressed as a stream with the pure-Rust
//! `ruzstd` decoder (so the browser's wasm build reads .zst files too).
//!
//! Input arrives in chunks of any size; whole blocks are decoded as soon as
//! they are complete, so memory stays at the frame's window (at most
//! 100 MiB, ruzstd's default limit) plus one block. Several frames in a row
//! and skippable frames are accepted, as the zstd tool does.
use ruzstd::decoding::FrameDecoder;

use super::{Location, TraceError};

/// The zstd frame magic number, little-endian.
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
/// The largest frame header (magic included).
const MAX_FRAME_HEADER: usize = 18;
/// Decompressed bytes handed on at a time.
const OUT_CHUNK: usize = 1 << 16;

/// Whether `head` starts with a zstd frame (or a skippable frame).
pub fn is_zstd(head: &[u8]) -> bool {
    head.starts_with(&MAGIC) || skippable(head)
}

fn skippable(head: &[u8]) -> bool {
    head.len() >= 4 && head[1..4] == [0x2A, 0x4D, 0x18] && head[0] & 0xF0 == 0x50
}

pub struct ZstdStream {
    dec: FrameDecoder,
    /// Compressed bytes not yet decoded.
    input: Vec<u8>,
    in_frame: bool,
    /// Compressed bytes consumed so far.
    consumed: u64,
    out: Vec<u8>,
}

impl Default for ZstdStream {
    fn default() -> Self {
        ZstdStream { dec: FrameDecoder::new(), input: Vec::new(), in_frame: false, consumed: 0, out: vec![0; OUT_CHUNK] }
    }
}

impl ZstdStream {
    fn err(&self, pos: usize, message: impl Into<String>) -> TraceError {
        TraceError::new(Location::Compressed(self.consumed + pos as u64), message)
    }

    /// Decodes what `data` completes and hands the decompressed bytes to
    /// `emit`; with `eof`, the stream must end at a frame boundary.
    pub fn push(&mut self, data: &[u8], eof: bool, emit: &mut impl FnMut(&[u8]) -> Result<(), TraceError>) -> Result<(), TraceError> {
        self.input.extend_from_slice(data);
        let mut pos = 0;
        loop {
            let rest = &self.input[pos..];
            if !self.in_frame {
                if rest.is_empty() || (rest.len() < MAX_FRAME_HEADER && !eof) {
                    break;
                }
                if skippable(rest) {
                    if rest.len() < 8 {
                        return Err(self.err(pos, "the stream ends inside a skippable frame header"));
                    }
                    let len = 8 + u32::from_le_bytes(rest[4..8].try_into().expect("4 bytes")) as usize;
                    if rest.len() < len {
                        if eof {
                            return Err(self.err(pos, "the stream ends inside a skippable frame"));
                        }
                        break;
                    }
                    pos += len;
                    continue;
                }
                let mut src = rest;
                self.dec.reset(&mut src).map_err(|e| self.err(pos, format!("not a zstd frame: {e}")))?;
                pos += rest.len() - src.len();
                self.in_frame = true;
                continue;
            }
            // The checksum step of decode_from_to claims 4 bytes even when
            // fewer are there: never call it with fewer unless at the end.
            if rest.len() < 4 && !eof && !self.dec.is_finished() {
                break;
            }
            let (read, written) = self.dec.decode_from_to(rest, &mut self.out).map_err(|e| self.err(pos, format!("corrupt data: {e}")))?;
            if read > rest.len() {
                return Err(self.err(pos, "the stream ends inside a frame (truncated .zst file)"));
            }
            pos += read;
            if written > 0 {
                let out = std::mem::take(&mut self.out);
                let r = emit(&out[..written]);
                self.out = out;
                r?;
            }
            if self.dec.is_finished() && self.dec.can_collect() == 0 {
                if let (Some(want), Some(got)) = (self.dec.get_checksum_from_data(), self.dec.get_calculated_checksum()) {
                    if want != got {
                        return Err(self.err(pos, format!("checksum mismatch (frame says {want:08x}, data gives {got:08x})")));
                    }
                }
                self.in_frame = false;
                continue;
            }
            if read == 0 && written == 0 {
                break;
            }
        }
        self.input.drain(..pos);
        self.consumed += pos as u64;
        if eof && (self.in_frame || !self.input.is_empty()) {
            return Err(TraceError::new(Location::Compressed(self.consumed), "the stream ends inside a frame (truncated .zst file)"));
        }
        Ok(())
    }

    /// Compressed bytes consumed so far.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }
}
