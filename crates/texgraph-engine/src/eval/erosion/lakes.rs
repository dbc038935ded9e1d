//! Lakes still standing when hydraulic erosion ends, filled level.
//!
//! A lake the run had no time to fill would leave its bed as a pit in the height: a hollow
//! with steep sides that reads as a hole, not as the flat floor a basin's sediment makes.
//! Each lake (cells joined through any of their eight neighbours, each holding at least
//! [`LAKE_DEPTH`] of water) is filled to the lowest level of its water's surface, the deposit
//! a longer run would lay down; ground standing above that level inside the lake is left
//! as it is. The walk over the cells is serial and in a fixed order, so the result is the
//! same on any thread count.

/// Standing water shallower than this (height units) is a film on the ground, not a lake.
pub const LAKE_DEPTH: f32 = 1.0e-4;

/// How much each cell of the `w` × `h` grid is raised: to its lake's lowest water level,
/// 0 outside lakes. `ground(i)` and `lake(i)` give inner cell i's values (rows top to
/// bottom); `wrap` joins the opposite edges. Besides the result it holds a flag and at
/// most two indices of 4 bytes per cell.
pub fn fill(
    ground: impl Fn(usize) -> f32,
    lake: impl Fn(usize) -> f32,
    w: usize,
    h: usize,
    wrap: bool,
) -> Vec<f32> {
    let mut raise = vec![0.0f32; w * h];
    let mut seen = vec![false; w * h];
    let mut members: Vec<u32> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    for start in 0..w * h {
        if seen[start] || lake(start) < LAKE_DEPTH {
            continue;
        }
        seen[start] = true;
        stack.push(start as u32);
        members.clear();
        let mut level = f32::MAX;
        while let Some(cell) = stack.pop() {
            members.push(cell);
            let cell = cell as usize;
            level = level.min(ground(cell) + lake(cell));
            let (x, y) = ((cell % w) as isize, (cell / w) as isize);
            for (dx, dy) in NEIGHBOURS {
                let Some(next) = neighbour(x + dx, y + dy, w, h, wrap) else {
                    continue;
                };
                if !seen[next] && lake(next) >= LAKE_DEPTH {
                    seen[next] = true;
                    stack.push(next as u32);
                }
            }
        }
        for &cell in &members {
            let cell = cell as usize;
            raise[cell] = (level - ground(cell)).max(0.0);
        }
    }
    raise
}

const NEIGHBOURS: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The index of cell (`x`, `y`), wrapped or `None` past the edges.
fn neighbour(x: isize, y: isize, w: usize, h: usize, wrap: bool) -> Option<usize> {
    let (w, h) = (w as isize, h as isize);
    let (x, y) = if wrap {
        (x.rem_euclid(w), y.rem_euclid(h))
    } else if (0..w).contains(&x) && (0..h).contains(&y) {
        (x, y)
    } else {
        return None;
    };
    Some((y * w + x) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lake_fills_to_its_own_lowest_water_level() {
        // A row of 6 by 3: a lake over cells 1–2 of the middle row, another over cell 4,
        // and a film too thin to count at cell 0 of the top row.
        let (w, h) = (6, 3);
        let mut ground = vec![1.0f32; w * h];
        let mut lake = vec![0.0f32; w * h];
        let middle = w;
        ground[middle + 1] = 0.2;
        lake[middle + 1] = 0.35; // surface 0.55
        ground[middle + 2] = 0.5;
        lake[middle + 2] = 0.06; // surface 0.56
        ground[middle + 4] = 0.3;
        lake[middle + 4] = 0.1; // surface 0.4
        lake[0] = LAKE_DEPTH / 2.0;
        let raise = fill(|i| ground[i], |i| lake[i], w, h, false);
        let mut want = vec![0.0f32; w * h];
        want[middle + 1] = 0.55 - 0.2;
        want[middle + 2] = 0.55 - 0.5;
        want[middle + 4] = 0.4 - 0.3;
        for (got, want) in raise.iter().zip(&want) {
            assert!((got - want).abs() < 1e-6, "{raise:?}");
        }
    }

    #[test]
    fn a_lake_across_a_wrapped_edge_is_one_lake() {
        let (w, h) = (4, 1);
        let ground = [0.1f32, 1.0, 1.0, 0.3];
        let lake = [0.4f32, 0.0, 0.0, 0.3];
        // Wrapped, the cells at either end are one lake at the lower surface, 0.5.
        let wrapped = fill(|i| ground[i], |i| lake[i], w, h, true);
        assert!((wrapped[0] - 0.4).abs() < 1e-6 && (wrapped[3] - 0.2).abs() < 1e-6);
        // Apart, each keeps its own level.
        let apart = fill(|i| ground[i], |i| lake[i], w, h, false);
        assert!((apart[0] - 0.4).abs() < 1e-6 && (apart[3] - 0.3).abs() < 1e-6);
    }
}
