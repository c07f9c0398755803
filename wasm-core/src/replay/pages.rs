//! Trace object ids to page indices of the replayed file.
//!
//! Ids below DIRECT_LIMIT are page indices as they are (a trace of page
//! numbers, or a generated one, costs no lookup). The first id at or above
//! it (libCacheSim traces hash their ids to 64 bits) switches the map to a
//! hash map that numbers pages densely in order of first appearance; the
//! ids seen before keep their pages. Which page an id gets changes nothing
//! the replay reports: a read of a page-cache page does not depend on its
//! neighbours here (no readahead is modelled).
use rustc_hash::FxHashMap;

/// Ids below this are used as page indices directly.
pub const DIRECT_LIMIT: u64 = 1 << 22;

#[derive(Clone, Debug, Default)]
pub struct PageMap {
    /// None while every id so far was below DIRECT_LIMIT.
    hashed: Option<FxHashMap<u64, u32>>,
    /// Pages of objects larger than one page, beyond their first:
    /// (obj_id, page in the object) -> page index.
    extra: FxHashMap<(u64, u32), u32>,
    /// Page indices in use: 0..len.
    len: u32,
}

impl PageMap {
    /// With `object_pages` (objects of several pages), ids are always
    /// numbered densely, so that an object's later pages, numbered after
    /// it, cannot collide with an id used directly.
    pub fn new(object_pages: bool) -> Self {
        PageMap { hashed: object_pages.then(FxHashMap::default), ..Default::default() }
    }

    /// Page indices in use (0..len): the file's size in pages.
    pub fn file_pages(&self) -> u32 {
        self.len
    }

    /// Whether `obj_id` would switch the map from direct to hashed ids.
    #[inline]
    pub fn switches(&self, obj_id: u64) -> bool {
        self.hashed.is_none() && obj_id >= DIRECT_LIMIT
    }

    /// The page of `obj_id` (its first page), or None when it would be a
    /// page beyond `limit`. `seen(index)` says whether a page index below
    /// len was used (read when switching to the hash map).
    #[inline]
    pub fn page(&mut self, obj_id: u64, limit: u32, seen: impl Fn(u32) -> bool) -> Option<u32> {
        if self.hashed.is_none() {
            if obj_id < DIRECT_LIMIT {
                let idx = obj_id as u32;
                if idx >= self.len {
                    if idx >= limit {
                        return None;
                    }
                    self.len = idx + 1;
                }
                return Some(idx);
            }
            let mut map = FxHashMap::default();
            for i in 0..self.len {
                if seen(i) {
                    map.insert(u64::from(i), i);
                }
            }
            self.hashed = Some(map);
        }
        let map = self.hashed.as_mut().expect("set above");
        if let Some(&i) = map.get(&obj_id) {
            return Some(i);
        }
        if self.len >= limit {
            return None;
        }
        let i = self.len;
        map.insert(obj_id, i);
        self.len += 1;
        Some(i)
    }

    /// Page `j` (>= 1) of a multi-page object (only with `object_pages`).
    pub fn extra_page(&mut self, obj_id: u64, j: u32, limit: u32) -> Option<u32> {
        if let Some(&i) = self.extra.get(&(obj_id, j)) {
            return Some(i);
        }
        if self.len >= limit {
            return None;
        }
        let i = self.len;
        self.extra.insert((obj_id, j), i);
        self.len += 1;
        Some(i)
    }
}
