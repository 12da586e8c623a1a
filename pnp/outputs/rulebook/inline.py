"""Pictures inside a paragraph of rulebook text (words before and after them), which never
break the paragraph in two:

- a picture a line high (one without a width, or one whose width makes it at most
  LINE_PICTURE lines tall) is drawn in its line, as an inline icon is;
- a taller one no wider than FLOAT_SHARE of the column stands beside the paragraph, at the
  right, and the text flows round it (drawn as it is drawn alone: a card stays vector art);
- a wider one follows the paragraph, centred, as a paragraph of pictures alone is laid out.

Pictures before the first words of a paragraph are a row above it, and pictures after its last
words a row below it, as a paragraph that holds only pictures is a row of pictures
(:mod:`.images`).
"""

from __future__ import annotations

import re

from .images import picture_size, picture_stack_class
from .pagination import paragraph_class

LINE_PICTURE = 1.5
"""A picture up to this many times the text size tall is drawn inside the line."""
FLOAT_SHARE = 0.45
"""A taller picture up to this share of the column wide stands beside the paragraph."""


def _worded(segments) -> list[int]:
    return [i for i, (k, v) in enumerate(segments) if k == "text" and re.sub(r"(<[^>]*>|\s)", "", v)]


def has_pictures_in_text(segments) -> bool:
    """Whether inline ``segments`` (("text", markup) and ("image", PlacedImage)) hold a picture
    with words before and after it."""
    worded = _worded(segments)
    return bool(worded) and any(k == "image" for k, _ in segments[worded[0]:worded[-1]])


def paragraph_with_pictures(story, segments, style) -> list:
    """The flowables of a paragraph of ``style`` whose text holds pictures (see the module
    docstring), for ``story`` (a :class:`pnp.outputs.rulebook.story.MarkdownStory`)."""
    from reportlab.platypus.flowables import ImageAndFlowables

    size, frame_w, gap = style.fontSize, story.frame_w, story.st.base * 0.8
    worded = _worded(segments)
    first, last = worded[0], worded[-1]
    above = [v for k, v in segments[:first] if k == "image"]
    trailing = [v for k, v in segments[last:] if k == "image"]
    parts, beside, wide = [], [], []
    for kind, value in segments[first:last + 1]:
        if kind == "text":
            parts.append(value)
            continue
        width, height = picture_size(value, size, frame_w)
        if height <= size * LINE_PICTURE:
            parts.append(story.picture(value, width, height))
        elif width <= frame_w * FLOAT_SHARE:
            beside.append((value, width, height))
        else:
            wide.append(value)
    para = paragraph_class()("".join(parts).strip(), style)
    flows: list = [para]
    if beside:
        stack = picture_stack_class()(beside, gap, story.drawn, story.locate)
        flows = [ImageAndFlowables(stack, [para], imageSide="right", imageLeftPadding=gap, imageRightPadding=0,
                                   imageBottomPadding=style.spaceAfter)]
    row, below = story.ImageFlow, wide + trailing
    if above:
        flows.insert(0, row(above, gap=gap, space_after=style.spaceAfter, findings=story.drawn, where=story.locate))
    if below:
        flows.append(row(below, gap=gap, space_after=style.spaceAfter, findings=story.drawn, where=story.locate))
    return flows
