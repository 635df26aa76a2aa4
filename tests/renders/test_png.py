"""The PNG every board is sent as: any viewer must read back exactly the pixels drawn."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from renders.common import to_png


def drawing() -> Image.Image:
    """Flat colours, anti-aliased text and a gradient: more colours than a palette holds."""
    image = Image.new("RGB", (301, 97), (250, 248, 244))
    draw = ImageDraw.Draw(image)
    for x in range(0, 301, 3):
        draw.line((x, 0, x, 40), fill=(x % 256, 255 - x % 256, 128))
    draw.rounded_rectangle((10, 50, 200, 90), radius=9, fill=(0, 114, 178), outline=(0, 0, 0))
    draw.text((220, 60), "Ada 12", fill=(34, 34, 34))
    return image


def decoded(png: bytes) -> Image.Image:
    Image.open(io.BytesIO(png)).verify()  # signature, chunk order and every CRC
    return Image.open(io.BytesIO(png))


def test_the_png_holds_exactly_the_paletted_pixels() -> None:
    image = drawing()
    palette = image.quantize(64)  # a renderer's own palette
    expected = image.quantize(palette=palette, dither=Image.Dither.NONE)
    png = decoded(to_png(image, palette))
    assert png.mode == "P" and png.size == image.size
    assert png.tobytes() == expected.tobytes()
    assert png.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


def test_the_png_looks_like_the_drawing() -> None:
    image = drawing()
    shown = decoded(to_png(image, image.quantize(256))).convert("RGB")
    for xy in ((5, 45), (100, 70), (60, 20)):
        got, want = shown.getpixel(xy), image.getpixel(xy)
        assert all(abs(a - b) <= 8 for a, b in zip(got, want, strict=True)), (xy, got, want)
