//! libCacheSim's `oracleGeneral` binary trace format, read as a stream.
//!
//! Little-endian 24-byte records, no header:
//!
//! | bytes | field | use here |
//! |---|---|---|
//! | 0..4 | u32 time (s) | ignored |
//! | 4..12 | u64 obj_id | the page (or object) read |
//! | 12..16 | u32 obj_size (bytes) | pages of the object with `objectPages` |
//! | 16..24 | i64 next_access_vtime | checked: -1 (never) or >= 0 |
//!
//! As libCacheSim's reader does, records with obj_size 0 are skipped.
use super::{Location, Request, TraceError};

pub const RECORD_BYTES: usize = 24;

/// A bad record among this many first ones says the file may not be an
/// oracleGeneral trace at all (a PNG picked by mistake).
const FIRST_RECORDS: u64 = 16;

/// Encodes one record (for the trace generator and tests).
pub fn encode(time: u32, obj_id: u64, obj_size: u32, next_access_vtime: i64) -> [u8; RECORD_BYTES] {
    let mut r = [0u8; RECORD_BYTES];
    r[0..4].copy_from_slice(&time.to_le_bytes());
    r[4..12].copy_from_slice(&obj_id.to_le_bytes());
    r[12..16].copy_from_slice(&obj_size.to_le_bytes());
    r[16..24].copy_from_slice(&next_access_vtime.to_le_bytes());
    r
}

/// The record parser: whole records straight from each chunk, a record cut
/// by a chunk boundary through a 24-byte carry buffer.
#[derive(Clone, Debug, Default)]
pub struct OracleParser {
    carry: [u8; RECORD_BYTES],
    carry_len: usize,
    /// Bytes consumed so far (the offset of the next byte).
    offset: u64,
    /// Records with obj_size 0, skipped.
    pub skipped: u64,
}

impl OracleParser {
    /// Parses one record that starts at byte `offset`.
    #[inline]
    fn record(&mut self, r: &[u8], offset: u64, sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        let obj_id = u64::from_le_bytes(r[4..12].try_into().expect("8 bytes"));
        let size = u32::from_le_bytes(r[12..16].try_into().expect("4 bytes"));
        let next = i64::from_le_bytes(r[16..24].try_into().expect("8 bytes"));
        if next < -1 {
            let record = offset / RECORD_BYTES as u64;
            // Among the first records: more likely another kind of file than one bad record.
            let whole = if record < FIRST_RECORDS { "this does not look like an oracleGeneral trace (24-byte records: time, obj_id, obj_size, next_access_vtime): " } else { "" };
            return Err(TraceError::new(
                Location::Byte(offset + 16),
                format!("{whole}record {record}: next_access_vtime {next} is neither -1 (no next access) nor a request number"),
            ));
        }
        if size == 0 {
            self.skipped += 1;
            return Ok(());
        }
        sink(Request { obj_id, size: u64::from(size) });
        Ok(())
    }

    pub fn feed(&mut self, mut data: &[u8], sink: &mut impl FnMut(Request)) -> Result<(), TraceError> {
        if self.carry_len > 0 {
            let take = (RECORD_BYTES - self.carry_len).min(data.len());
            self.carry[self.carry_len..self.carry_len + take].copy_from_slice(&data[..take]);
            self.carry_len += take;
            data = &data[take..];
            if self.carry_len < RECORD_BYTES {
                return Ok(());
            }
            let r = self.carry;
            let at = self.offset;
            self.record(&r, at, sink)?;
            self.offset += RECORD_BYTES as u64;
            self.carry_len = 0;
        }
        let mut records = data.chunks_exact(RECORD_BYTES);
        for r in &mut records {
            let at = self.offset;
            self.record(r, at, sink)?;
            self.offset += RECORD_BYTES as u64;
        }
        let rest = records.remainder();
        self.carry[..rest.len()].copy_from_slice(rest);
        self.carry_len = rest.len();
        Ok(())
    }

    /// The end of the trace: a partial record is an error.
    pub fn finish(&mut self) -> Result<(), TraceError> {
        if self.carry_len > 0 {
            return Err(TraceError::new(
                Location::Byte(self.offset),
                format!("truncated record: the trace ends {} bytes into a {RECORD_BYTES}-byte record", self.carry_len),
            ));
        }
        Ok(())
    }

    /// Bytes read so far.
    pub fn offset(&self) -> u64 {
        self.offset + self.carry_len as u64
    }
}
