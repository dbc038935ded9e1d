//! The settings of the erosion stages: plain numbers, as a program holds them. How they
//! are used is in the evaluator's `erosion` module.

/// Hydraulic erosion: rain runs downhill, gathers into streams, picks up material where
/// it runs fast and lays it down where it slows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hydraulic {
    /// How long it runs, in normalised time: 1 is the default's worth of steps at every
    /// level of detail; the steps scale with it.
    pub duration: f32,
    /// Rain on every texel, a multiplier of the default (1).
    pub rain: f32,
    /// The share of the water lost per texture width it runs: streams dry up far from
    /// their sources.
    pub evaporation: f32,
    /// How much material running water can carry, a multiplier of the default (1).
    pub capacity: f32,
    /// How much more than in proportion to their water large streams carry, 0 and up:
    /// with it, streams cut their beds faster than the slopes around them wear, and
    /// valleys branch into gullies.
    pub downcutting: f32,
    /// The share of the missing load picked up from the ground per step, 0…1.
    pub erosion: f32,
    /// The share of the excess load laid down per step, 0…1.
    pub deposition: f32,
    /// The slope (rise over run) below which water carries as if the ground were this
    /// steep: flats still wear a little.
    pub min_slope: f32,
    /// The seed of the rain's random variation.
    pub seed: u32,
}

/// Thermal erosion: where the ground is steeper than the talus angle, material slides
/// to the lower neighbours, leaving scree slopes and rounded crests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thermal {
    /// How long it runs, in normalised time.
    pub duration: f32,
    /// The steepest stable slope, degrees.
    pub talus_angle: f32,
    /// The share of the excess slope moved per step, 0…1.
    pub strength: f32,
}

/// Which erosion a stage runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Erosion {
    /// Water.
    Hydraulic(Hydraulic),
    /// Gravity.
    Thermal(Thermal),
}

impl Erosion {
    /// Channels of the plane it writes: height, flow, wear and deposition for hydraulic
    /// erosion; height for thermal.
    pub fn channels(&self) -> usize {
        match self {
            Erosion::Hydraulic(_) => 4,
            Erosion::Thermal(_) => 1,
        }
    }

    /// Every setting by its bits, to tell two stages apart.
    pub fn key(&self) -> [u32; 10] {
        match *self {
            Erosion::Hydraulic(h) => [
                0,
                h.duration.to_bits(),
                h.rain.to_bits(),
                h.evaporation.to_bits(),
                h.capacity.to_bits(),
                h.downcutting.to_bits(),
                h.erosion.to_bits(),
                h.deposition.to_bits(),
                h.min_slope.to_bits(),
                h.seed,
            ],
            Erosion::Thermal(t) => [
                1,
                t.duration.to_bits(),
                t.talus_angle.to_bits(),
                t.strength.to_bits(),
                0,
                0,
                0,
                0,
                0,
                0,
            ],
        }
    }
}
