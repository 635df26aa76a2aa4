"""A game's GIF: every position as drawn, in order, each for its time, looping."""

from __future__ import annotations

import io

from PIL import Image, ImageSequence

import renders
from renders.animation import END_MS, STEP_MS, animate
from tests.renders.test_ground import positions


def shown(gif: bytes) -> list[tuple[bytes, int]]:
    """Each frame of ``gif`` as a viewer composes it (RGB bytes), with its duration."""
    with Image.open(io.BytesIO(gif)) as animation:
        assert animation.format == "GIF" and animation.info.get("loop") == 0
        return [
            (frame.convert("RGB").tobytes(), frame.info["duration"])
            for frame in ImageSequence.Iterator(animation)
        ]


def test_every_frame_is_its_board_and_a_repeated_position_shows_longer() -> None:
    for key in ("bridges-and-boats", "seven-cities", "skybridge"):
        views = positions(key, games=1)[:12]
        boards = [renders.render(key, view, names) for view, names in views]
        boards.insert(3, boards[2])  # a position shown twice in a row (a skipped turn)
        frames = shown(animate(boards))
        pictures = [Image.open(io.BytesIO(board)).convert("RGB") for board in boards]
        size = (max(p.width for p in pictures), max(p.height for p in pictures))
        expected: list[tuple[bytes, int]] = []
        for i, picture in enumerate(pictures):
            laid = Image.new("RGB", size, picture.getpixel((0, 0)))
            laid.paste(picture, (0, 0))
            duration = END_MS if i == len(pictures) - 1 else STEP_MS
            if expected and expected[-1][0] == laid.tobytes():
                expected[-1] = (expected[-1][0], expected[-1][1] + duration)
            else:
                expected.append((laid.tobytes(), duration))
        assert len(frames) == len(expected) == len(boards) - 1, key
        for (got, got_ms), (want, want_ms) in zip(frames, expected, strict=True):
            assert got == want, key
            assert got_ms == want_ms, key
