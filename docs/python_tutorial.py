"""texgraph from Python, in two short recipes (see the README's Python section).

1. A seed sweep: sixteen variations of marble rendered into NumPy arrays and laid out as
   a 4 × 4 contact sheet with NumPy, saved with Pillow.
2. A parameter animation: fire whose flames' frequency rises frame by frame while its
   time runs, eight frames saved as PNGs.

Run it from the repository: `python docs/python_tutorial.py [output folder]`. Beside the
module it needs NumPy and Pillow (`pip install numpy pillow`).

Linear light or display values: `render()` gives a base color or emissive output in
linear light, as an EXR holds it — right for maths, filtering and compositing, but too
dark if shown as it is. `render(linear=False)` gives it as rendered, sRGB-encoded as a PNG
holds it: what a screen or an 8-bit file shows. Other outputs (height, roughness, masks,
plain colors) are the same either way. To show linear values, encode them to sRGB first.
"""

import sys
from pathlib import Path

import numpy as np
from PIL import Image

import texgraph

GRAPHS = Path(__file__).resolve().parent.parent / "graphs"
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
out.mkdir(parents=True, exist_ok=True)


def to_8_bit(image):
    """A render (float32, height × width × channels) as 8-bit RGB(A) for Pillow."""
    pixels = np.clip(image, 0.0, 1.0)
    if pixels.shape[2] == 1:
        pixels = np.repeat(pixels, 3, axis=2)
    return (pixels * 255.0 + 0.5).astype(np.uint8)


# 1. Sixteen seeds of marble's turbulence, 256² each, into one 1024² sheet.
marble = texgraph.load(GRAPHS / "marble.json")
tiles = []
for seed in range(16):
    marble.set("turb.seed", seed)
    # For a picture, not for maths: sRGB values, as the PNG export holds them.
    tiles.append(marble.render(size=256, linear=False))
rows = [np.concatenate(tiles[r * 4:(r + 1) * 4], axis=1) for r in range(4)]
sheet = np.concatenate(rows, axis=0)
Image.fromarray(to_8_bit(sheet)).save(out / "marble_seeds.png")
print(f"wrote {out / 'marble_seeds.png'}: {sheet.shape[1]}x{sheet.shape[0]}")

# 2. Fire: the flames' frequency rises while time runs, eight frames at 12 fps.
fire = texgraph.load(GRAPHS / "fire.json")
for frame in range(8):
    fire.set("flame_noise.frequency", 4.0 + 0.25 * frame)
    image = fire.render(size=256, time=frame / 12, linear=False)
    Image.fromarray(to_8_bit(image)).save(out / f"fire_{frame:03}.png")
print(f"wrote {out / 'fire_000.png'} … {out / 'fire_007.png'}")
