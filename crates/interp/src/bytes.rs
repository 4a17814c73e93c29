//! Loads and stores of scalars in little-endian byte buffers: the memory form of struct values,
//! struct fields and vec elements (C layout, matching the JIT's memory layout). Vec handles in
//! struct fields are stored as 8-byte words, like `i64`.

use crate::error::Fault;
use poolopt_ir::ScalarType;

fn out_of_range(off: usize) -> Fault {
    Fault::Malformed(format!("memory access at byte {off} is out of range"))
}

/// Reads a scalar of type `ty` at byte `off`, sign-extended into an `i64` (`bool`: 0/1).
#[inline]
pub(crate) fn load(ty: ScalarType, buf: &[u8], off: usize) -> Result<i64, Fault> {
    let size = ty.size() as usize;
    let b = buf
        .get(off..off.wrapping_add(size))
        .ok_or_else(|| out_of_range(off))?;
    Ok(match ty {
        ScalarType::I8 => b[0] as i8 as i64,
        ScalarType::Bool => (b[0] & 1) as i64,
        ScalarType::I16 => i16::from_le_bytes([b[0], b[1]]) as i64,
        ScalarType::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64,
        ScalarType::I64 => i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
    })
}

/// Writes the low `size(ty)` bytes of `value` at byte `off`.
#[inline]
pub(crate) fn store(ty: ScalarType, buf: &mut [u8], off: usize, value: i64) -> Result<(), Fault> {
    let size = ty.size() as usize;
    let b = buf
        .get_mut(off..off.wrapping_add(size))
        .ok_or_else(|| out_of_range(off))?;
    let value = ty.wrap(value);
    b.copy_from_slice(&value.to_le_bytes()[..size]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_little_endian() {
        let mut buf = [0u8; 16];
        store(ScalarType::I32, &mut buf, 4, -2).unwrap();
        assert_eq!(&buf[4..8], &[0xfe, 0xff, 0xff, 0xff]);
        assert_eq!(load(ScalarType::I32, &buf, 4), Ok(-2));
        assert_eq!(load(ScalarType::I8, &buf, 4), Ok(-2));
        assert_eq!(load(ScalarType::I16, &buf, 6), Ok(-1));
        store(ScalarType::I64, &mut buf, 8, i64::MIN).unwrap();
        assert_eq!(load(ScalarType::I64, &buf, 8), Ok(i64::MIN));
        assert!(load(ScalarType::I64, &buf, 9).is_err());
        assert!(store(ScalarType::I8, &mut buf, usize::MAX, 0).is_err());
    }
}
