//! The text forms of sizes and grids that manifests and the CLI's flags share.

use texgraph_core::eval::MAX_SIDE;

/// Parses `1024` (square) or `2048x1024` (width x height), each side 1 to [`MAX_SIDE`].
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let side = |s: &str| -> Result<u32, String> {
        match s.trim().parse::<u64>() {
            Ok(n) if (1..=u64::from(MAX_SIDE)).contains(&n) => Ok(n as u32),
            Ok(_) => Err(format!(
                "'{s}' is out of range: a side is 1 to {MAX_SIDE} pixels"
            )),
            Err(_) => Err(format!("'{s}' is not a positive whole number of pixels")),
        }
    };
    match text.split_once(['x', 'X']) {
        Some((w, h)) => Ok((side(w)?, side(h)?)),
        None => side(text).map(|n| (n, n)),
    }
}

/// Parses a sprite-sheet grid `COLSxROWS`, each 1 to 1024.
pub fn parse_grid(text: &str) -> Result<(u32, u32), String> {
    let count = |s: &str| match s.trim().parse::<u32>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("'{s}' in '{text}' is not a count of 1 to 1024")),
    };
    match text.split_once(['x', 'X']) {
        Some((columns, rows)) => Ok((count(columns)?, count(rows)?)),
        None => Err(format!("'{text}' is not a grid like 8x6 (columns x rows)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("1024"), Ok((1024, 1024)));
        assert_eq!(parse_size("2048x1024"), Ok((2048, 1024)));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12xx4").is_err());
        assert!(parse_size("-3").is_err());
        assert_eq!(parse_size("65536x1"), Ok((65536, 1)));
        assert!(parse_size("65537").unwrap_err().contains("1 to 65536"));
        assert!(parse_size("99999999999999999999").is_err());
    }

    #[test]
    fn grids_parse() {
        assert_eq!(parse_grid("8x6"), Ok((8, 6)));
        assert!(parse_grid("0x2").is_err());
        assert!(parse_grid("1025x1").unwrap_err().contains("1 to 1024"));
        assert!(parse_grid("4").is_err());
    }
}
