"""A plot's legend out of its curves: the corner of the plot that the drawn curves cross least (pyqtgraph)."""

from __future__ import annotations

import numpy as np

#: the corners the legend may take (x, y from the top left) and the share of the plot's width and height a
#: corner's box spans when the points of the curves in it are counted
LEGEND_CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))
LEGEND_SHARE = 0.3


def least_crossed_corner(plot_item, items, current=(0, 0)):
    """The corner (LEGEND_CORNERS) of `plot_item`'s view that the points of the data `items` fall in least
    (the current one while it is as good); None when the view or the items give nothing to count."""
    (x0, x1), (y0, y1) = plot_item.viewRange()
    if x1 <= x0 or y1 <= y0:
        return None
    counts = dict.fromkeys(LEGEND_CORNERS, 0)
    for item in items:
        x, y = item.getData()
        if x is None or not len(x):
            continue
        fx, fy = (np.asarray(x) - x0) / (x1 - x0), (y1 - np.asarray(y)) / (y1 - y0)  # from the top left
        for cx, cy in counts:
            inx = (fx <= LEGEND_SHARE) if cx == 0 else (fx >= 1 - LEGEND_SHARE)
            iny = (fy <= LEGEND_SHARE) & (fy >= 0) if cy == 0 else (fy >= 1 - LEGEND_SHARE) & (fy <= 1)
            counts[(cx, cy)] += int(np.count_nonzero(inx & iny & (fx >= 0) & (fx <= 1)))
    return min(counts, key=lambda c: (counts[c], c != current))


def anchor_legend(legend, corner) -> None:
    """Put the legend in `corner` of its plot, 5 px in from the edges."""
    offset = (5 if corner[0] == 0 else -5, 5 if corner[1] == 0 else -5)
    legend.anchor(itemPos=corner, parentPos=corner, offset=offset)
