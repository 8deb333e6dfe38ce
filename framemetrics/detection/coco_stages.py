"""pycocotools' bbox evaluation as stages of a :class:`~framemetrics.core.frame.Frame`, for every engine.

The stages read canonical frames: detections ``seg, image_id, category_id,
did, dx, dy, dw, dh, score`` and ground truths ``seg, image_id, category_id,
gid, gx, gy, gw, gh, garea, crowd`` (``seg`` an integer code of the
segment, ``crowd`` 0 or 1). pycocotools' ``evaluateImg`` and ``accumulate``
become:

1. :func:`ranked_detections`: each image and category's detections by score
   (ties by id), the first ``maxDets[-1] = 100`` kept.
2. :func:`scored_pairs`: detection x ground truth of the same image and
   category with ``bbIou >= 0.5`` (no pair below the lowest threshold ever
   matches); :func:`candidate_pairs`: one copy per area range ``a`` and IoU
   threshold ``t`` that the pair reaches, the ground truth ignored
   (``gig``) when crowd or outside the range. A range whose ignore flags
   equal an earlier range's in an image and category matches as that one
   does, and so does a threshold reached by as many pairs as a lower one:
   only the first is matched, then copied (:func:`area_representatives`,
   :func:`threshold_representatives`).
3. :func:`matches`: the greedy matching, as a fixpoint. A detection takes,
   among the candidates not held by a detection ranked before it, the
   first by (not ignored, higher IoU, later ground truth in ``(ignored,
   id)`` order); crowd ground truths are never held. Round 0 gives each
   detection its best candidate; each round recomputes what is held from
   the previous round's picks, and a group (``a, t``, image, category)
   stops when its picks stop changing. Pycocotools' sequential loop has one
   result and it is this equation's only solution (by induction on rank:
   after round ``k`` the first ``k`` detections are final), so the fixpoint
   is exact; real data needs 2-3 rounds.
4. :func:`true_positives`: per segment, category, ``a``, ``maxDets`` ``m``
   and ``t``, the detections in pycocotools' order (score descending, then
   image id, then id). Only true positives are kept: the ``k``-th has
   ``fp = F - M`` false positives up to it, ``F`` the detections in range
   up to it (one window per ``a, m``, not per threshold) and ``M`` the
   matched ones in range; precision ``k / (fp + k + spacing(1))``, its
   envelope (the running maximum from the last true positive back).
5. :func:`recall_points`: where each of the 101 recall thresholds is read:
   the ``k``-th true positive, ``k`` the least with ``k / npig >= r``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from framemetrics.core.detection import (
    AREA_RANGES,
    COCO_STATS,
    IOU_THRESHOLDS,
    MAX_DETECTIONS,
    RECALL_THRESHOLDS,
    Box,
    coco_iou,
    coco_precision,
    first_rank_reaching,
)
from framemetrics.core.frame import Frame

__all__ = [
    "AREA_CODES",
    "MATCH_GROUP",
    "area_representatives",
    "candidate_pairs",
    "ground_truth_counts",
    "matches",
    "ranked_detections",
    "recall_points",
    "scored_pairs",
    "threshold_representatives",
    "true_positives",
]

AREA_CODES = {name: code for code, name in enumerate(AREA_RANGES)}
"""The integer ``a`` of each area range (pycocotools' order)."""
MATCH_GROUP = ("a", "t", "image_id", "category_id")
"""The rows one greedy matching runs over."""
_SEQUENCE = ("seg", "category_id", "a", "m")
Expr = Any


def _detection_order(f: Frame) -> list:
    """pycocotools' order of a category's detections over images: score descending, image id, id."""
    ns = f.ns
    return [-ns.col("score"), ns.col("image_id"), ns.col("did")]


def ranked_detections(detections: Frame) -> Frame:
    """The detections with their rank ``drank`` in their image and category and area ``darea``, rank <= 100.

    pycocotools sorts each image and category's detections by score with a
    stable sort (ties in file order, which is id order) and keeps
    ``maxDets[-1]``.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> d = PolarsFrame.values({"image_id": [1, 1], "category_id": [1, 1], "did": [1, 2],
    ...                         "dw": [2.0, 3.0], "dh": [1.0, 1.0], "score": [0.5, 0.9]})
    >>> ranked_detections(d).collect().sort("did")["drank"].to_list()
    [2, 1]
    """
    ns = detections.ns
    rank = ns.row_number(["image_id", "category_id"], [-ns.col("score"), ns.col("did")])
    ranked = detections.with_columns(drank=rank, darea=ns.col("dw") * ns.col("dh"))
    return ranked.filter(ranked.ns.col("drank") <= MAX_DETECTIONS[-1]).named("fm_detections")


def area_grid(f: Frame, areas: Sequence[str] = tuple(AREA_RANGES)) -> Frame:
    """``a, low, high``: the area ranges ``areas``."""
    return f.constant({
        "a": [AREA_CODES[n] for n in areas],
        "low": [AREA_RANGES[n][0] for n in areas],
        "high": [AREA_RANGES[n][1] for n in areas],
    })  # fmt: skip


def _ignored(f: Frame, low: Expr, high: Expr) -> Expr:
    """1 where the ground truth is ignored in the area range ``[low, high]``: crowd, or its area outside."""
    ns = f.ns
    c = ns.col
    return ns.flag(ns.any(ns.eq(c("crowd"), 1), c("garea") < low, c("garea") > high))


def area_representatives(ground_truths: Frame) -> Frame:
    """``image_id, category_id, a, rep``: the first area range whose ignore flags equal ``a``'s in that image
    and category (its matching is the same).

    Most images and categories have two distinct sets of flags among the four
    ranges (the range of their boxes' size is ``all``'s), so the matching
    runs on half of the rows.
    """
    ns = ground_truths.ns
    c = ns.col
    codes = list(AREA_CODES.values())
    flags = ground_truths.with_columns(**{
        f"fm_gig_{a}": _ignored(ground_truths, ns.lit(low), ns.lit(high))
        for a, (low, high) in zip(codes, AREA_RANGES.values(), strict=True)
    })  # fmt: skip
    differ = {
        f"fm_differ_{a}_{b}": ns.sum(ns.abs(c(f"fm_gig_{a}") - c(f"fm_gig_{b}"))) for a in codes for b in codes if a < b
    }
    pairs = flags.aggregate(["image_id", "category_id"], differ)

    def same(b: int, a: int) -> Expr:
        return ns.eq(c(f"fm_differ_{b}_{a}"), 0)

    return _first_equal(pairs, codes, same, None, ("a", "rep")).named("fm_area_representatives")


def scored_pairs(detections: Frame, ground_truths: Frame) -> Frame:
    """Detection x ground truth of an image and category with ``bbIou >= 0.5`` (no pair below ever matches).

    Columns: ``image_id, category_id, did, drank, gid, crowd, garea, iou``.
    """
    ns = detections.ns
    c = ns.col
    pairs = detections.keep("image_id", "category_id", "did", "drank", "dx", "dy", "dw", "dh").join(
        ground_truths.drop("seg"), ["image_id", "category_id"]
    )
    d, g = Box(c("dx"), c("dy"), c("dw"), c("dh")), Box(c("gx"), c("gy"), c("gw"), c("gh"))
    pairs = pairs.with_columns(iou=coco_iou(ns, d, g, ns.eq(c("crowd"), 1)))
    pairs = pairs.filter(c("iou") >= ns.lit(IOU_THRESHOLDS[0]))
    return pairs.keep("image_id", "category_id", "did", "drank", "gid", "crowd", "garea", "iou").named("fm_pairs")


def threshold_representatives(pairs: Frame) -> Frame:
    """``image_id, category_id, t, trep``: the least IoU threshold whose candidates in that image and category
    are those of ``t`` (the same number of pairs reach both, so the same pairs: the matching is the same).

    Only thresholds some pair reaches have a row. Pairs spread over few of
    the ten thresholds, so the matching runs on about a third of the rows.
    """
    ns = pairs.ns
    c = ns.col
    reached = {f"fm_reach_{t}": ns.count_where(c("iou") >= ns.lit(v)) for t, v in enumerate(IOU_THRESHOLDS)}
    counts = pairs.aggregate(["image_id", "category_id"], reached)
    codes = list(range(len(IOU_THRESHOLDS)))

    def same(u: int, t: int) -> Expr:
        return ns.eq(c(f"fm_reach_{u}"), c(f"fm_reach_{t}"))

    def present(t: int) -> Expr:
        return c(f"fm_reach_{t}") > 0

    return _first_equal(counts, codes, same, present, ("t", "trep")).named("fm_threshold_representatives")


def _first_equal(
    groups: Frame,
    codes: Sequence[int],
    same: Callable[[int, int], Expr],
    present: Callable[[int], Expr] | None,
    names: tuple[str, str],
) -> Frame:
    """``image_id, category_id, <code>, <rep>``: for each image and category (a row of ``groups``) and code,
    the least code ``b`` with ``same(b, code)`` (itself if none), where ``present(code)`` holds."""
    ns = groups.ns
    c = ns.col
    code_name, rep_name = names
    rows = None
    for code in codes:
        earlier = [(same(b, code), ns.lit(b)) for b in codes if b < code]
        rep = ns.case(earlier, ns.lit(code)) if earlier else ns.lit(code)
        part = groups if present is None else groups.filter(present(code))
        part = part.select({"image_id": c("image_id"), "category_id": c("category_id"), code_name: ns.lit(code),
                            rep_name: rep})  # fmt: skip
        rows = part if rows is None else rows.concat(part)
    return rows


def candidate_pairs(pairs: Frame, areas: Frame, thresholds: Frame) -> Frame:
    """The pairs of :func:`scored_pairs` once per representative area range and IoU threshold they reach.

    ``areas`` and ``thresholds``: :func:`area_representatives` and
    :func:`threshold_representatives`. Columns: ``a, t, image_id,
    category_id, did, drank, gid, crowd, gig, iou``.
    """
    ns = pairs.ns
    c = ns.col
    values = pairs.constant({"t": list(range(len(IOU_THRESHOLDS))), "threshold": list(IOU_THRESHOLDS)})
    kept_t = thresholds.filter(ns.eq(c("t"), c("trep"))).keep("image_id", "category_id", "t")
    kept_a = areas.filter(ns.eq(c("a"), c("rep"))).keep("image_id", "category_id", "a")
    reached = pairs.join(kept_t, ["image_id", "category_id"]).join(values, ["t"]).filter(c("iou") >= c("threshold"))
    reached = reached.join(kept_a, ["image_id", "category_id"]).join(area_grid(pairs), ["a"])
    return (
        reached.with_columns(gig=_ignored(reached, c("low"), c("high")))
        .keep(*MATCH_GROUP, "did", "drank", "gid", "crowd", "gig", "iou")
        .named("fm_candidates")
    )


def _with_best(rows: Frame, eligible: Expr) -> Frame:
    """``rows`` with ``best``: each detection's first eligible candidate (not ignored, higher IoU, later id)."""
    c = rows.ns.col
    return rows.with_first("best", [*MATCH_GROUP, "did"], [c("gig"), -c("iou"), -c("gid")], eligible)


def _step(previous: Frame) -> Frame:
    """One round: what earlier detections hold, each detection's best candidate left; changed groups only."""
    ns = previous.ns
    c = ns.col
    held_rank = ns.when(ns.all(c("picked"), ns.eq(c("crowd"), 0)), c("drank")).otherwise(ns.null_int())
    rows = previous.with_columns(holder=ns.window("min", held_rank, [*MATCH_GROUP, "gid"]))
    rows = _with_best(rows, ns.any(ns.is_null(c("holder")), c("holder") >= c("drank")))
    changed = ns.window("max", ns.flag(ns.ne(c("best"), c("picked"))), MATCH_GROUP)
    rows = rows.with_columns(changed=changed).filter(ns.eq(c("changed"), 1))
    return rows.with_columns(picked=c("best"), fm_round=c("fm_round") + 1).keep(*previous.columns)


def matches(candidates: Frame, areas: Frame, thresholds: Frame) -> Frame:
    """pycocotools' greedy matching: ``a, t, image_id, category_id, did, gid, gig`` per matched detection.

    Matched on the representative area ranges and IoU thresholds, then
    copied to every range and threshold they represent.
    """
    ns = candidates.ns
    c = ns.col
    first = _with_best(candidates, ns.lit(True)).rename({"best": "picked"}).with_columns(fm_round=ns.lit(0))
    picks = first.fixpoint(_step).filter(c("picked"))  # each round of a group picks: its first detection's best
    final = picks.with_columns(last=ns.window("max", c("fm_round"), MATCH_GROUP))
    final = final.filter(ns.eq(c("fm_round"), c("last")))
    final = final.keep(*MATCH_GROUP, "did", "gid", "gig").rename({"a": "rep", "t": "trep"})
    return (
        final.join(areas, ["image_id", "category_id", "rep"])
        .join(thresholds, ["image_id", "category_id", "trep"])
        .keep(*MATCH_GROUP, "did", "gid", "gig")
        .named("fm_matches")
    )


def _in_range(ns: Any, low: Expr, high: Expr) -> Expr:
    """The detection's area in the range ``[low, high]``."""
    return ns.all(ns.col("darea") >= low, ns.col("darea") <= high)


def true_positives(detections: Frame, matched: Frame, combos: Sequence[tuple[str, int]]) -> tuple[Frame, Frame]:
    """The true positives in pycocotools' order, and each sequence's size and first score.

    ``combos``: the (area range, maxDets) pairs evaluated. ``F`` is one
    running count per pair over each segment and category's detections (one
    sort of the detections), ``M`` one per maxDets over the matched ones.
    Returns the true positives ``seg, category_id, a, m, t, k, score,
    precision, envelope`` and the sequences ``seg, category_id, m,
    detections, top_score``.
    """
    ns = detections.ns
    c = ns.col
    counted = {
        f"fm_f_{i}": ns.window(
            "sum", ns.flag(ns.all(_in_range(ns, *map(ns.lit, AREA_RANGES[area])), c("drank") <= m)),
            ["seg", "category_id"],
            _detection_order(detections),
        )
        for i, (area, m) in enumerate(combos)
    }  # fmt: skip
    through = detections.keep("image_id", "category_id", "did", "seg", "score", "darea", "drank")
    through = through.with_columns(**counted)
    rows = matched.join(through, ["image_id", "category_id", "did"]).join(area_grid(matched), ["a"])
    per_m = sorted({m for _, m in combos})
    rows = rows.with_columns(**{
        f"fm_m_{m}": ns.window(
            "sum", ns.flag(ns.all(_in_range(ns, c("low"), c("high")), c("drank") <= m)), ["seg", "category_id", "a", "t"],
            _detection_order(rows),
        )
        for m in per_m
    })  # fmt: skip
    grid = rows.constant({
        "combo": list(range(len(combos))), "a": [AREA_CODES[area] for area, _ in combos], "m": [m for _, m in combos]
    })  # fmt: skip
    rows = rows.filter(ns.eq(c("gig"), 0)).join(grid, ["a"]).filter(c("drank") <= c("m"))
    detected = ns.case(
        [(ns.eq(c("combo"), i), c(f"fm_f_{i}")) for i in range(len(combos) - 1)], c(f"fm_f_{len(combos) - 1}")
    )
    matched_in_range = ns.case([(ns.eq(c("m"), m), c(f"fm_m_{m}")) for m in per_m[:-1]], c(f"fm_m_{per_m[-1]}"))
    group = [*_SEQUENCE, "t"]
    rows = rows.with_columns(k=ns.row_number(group, _detection_order(rows)), fp=detected - matched_in_range)
    rows = rows.with_columns(precision=coco_precision(ns, c("k"), c("fp")))
    rows = rows.with_columns(envelope=ns.window("max", c("precision"), group, [-c("k")]))
    tps = rows.keep(*group, "k", "score", "precision", "envelope").named("fm_true_positives")
    by_m = detections.join(detections.constant({"m": list(MAX_DETECTIONS)}), [], "cross")
    sequences = by_m.filter(c("drank") <= c("m")).aggregate(
        ["seg", "category_id", "m"], {"detections": ns.count_rows(), "top_score": ns.max(c("score"))}
    )
    return tps, sequences.named("fm_sequences")


def ground_truth_counts(ground_truths: Frame, areas: Frame) -> Frame:
    """``seg, category_id, a, npig``: the ground truths not ignored per segment, category and area range."""
    ns = ground_truths.ns
    c = ns.col
    rows = ground_truths.join(areas, [], "cross")
    counted = ns.all(ns.eq(c("crowd"), 0), c("garea") >= c("low"), c("garea") <= c("high"))
    return rows.aggregate(["seg", "category_id", "a"], {"npig": ns.count_where(counted)}).named("fm_npig")


def recall_points(counts: Frame) -> Frame:
    """``npig, r, k``: the true positive (``k >= 1``) read at recall threshold ``r`` for each ``npig``.

    Threshold 0 reads the first detection, whose envelope is the first
    true positive's (or 0); ``k`` is then 1.
    """
    ns = counts.ns
    c = ns.col
    totals = counts.filter(c("npig") > 0).aggregate(["npig"], {})
    grid = counts.constant({"r": list(range(len(RECALL_THRESHOLDS))), "recall_threshold": list(RECALL_THRESHOLDS)})
    rows = totals.join(grid, [], "cross")
    reached = first_rank_reaching(ns, c("recall_threshold"), c("npig"))
    return rows.with_columns(k=ns.greatest(reached, ns.lit(1))).named("fm_recall_points")


def combo_grid(f: Frame, combos: Sequence[tuple[str, int]]) -> Frame:
    """``a, low, high, m``: the (area range, maxDets) pairs evaluated."""
    return f.constant({
        "a": [AREA_CODES[area] for area, _ in combos],
        "low": [AREA_RANGES[area][0] for area, _ in combos],
        "high": [AREA_RANGES[area][1] for area, _ in combos],
        "m": [m for _, m in combos],
    })  # fmt: skip


def per_threshold(true_pos: Frame, counts: Frame, points: Frame, combos: Frame) -> Frame:
    """``seg, category_id, a, m, t, npig, precision_sum, recall`` where pycocotools does not give -1.

    ``precision_sum`` is the sum of the 101 interpolated precisions, each
    threshold's envelope counted once per threshold that reads it;
    ``recall`` is ``tp / npig`` (0 without detections).
    """
    ns = true_pos.ns
    c = ns.col
    thresholds = true_pos.constant({"t": list(range(len(IOU_THRESHOLDS)))})
    groups = counts.filter(c("npig") > 0).join(combos.keep("a", "m"), ["a"]).join(thresholds, [], "cross")
    weights = points.aggregate(["npig", "k"], {"readers": ns.count_rows()})
    weighted = true_pos.join(counts, ["seg", "category_id", "a"]).join(weights, ["npig", "k"], "left")
    sums = weighted.aggregate(
        ["seg", "category_id", "a", "m", "t"],
        {"tp": ns.max(c("k")), "precision_sum": ns.sum(c("envelope") * ns.coalesce(c("readers"), 0))},
    )
    rows = groups.join(sums, ["seg", "category_id", "a", "m", "t"], "left")
    return rows.select({
        **{n: c(n) for n in ("seg", "category_id", "a", "m", "t", "npig")},
        "precision_sum": ns.coalesce(c("precision_sum"), ns.lit(0.0)),
        "recall": ns.to_float(ns.coalesce(c("tp"), 0)) / ns.to_float(c("npig")),
    }).named("fm_per_threshold")  # fmt: skip


def summary(rows: Frame, keys: Sequence[str]) -> Frame:
    """pycocotools' 12 ``stats`` per ``keys`` from :func:`per_threshold` rows: means over categories and thresholds."""
    ns = rows.ns
    c = ns.col
    aggregates = {}
    for name, stat in COCO_STATS.items():
        conditions = [ns.eq(c("a"), AREA_CODES[stat.area]), ns.eq(c("m"), stat.max_detections)]
        if stat.iou_threshold is not None:
            conditions.append(ns.eq(c("t"), IOU_THRESHOLDS.index(stat.iou_threshold)))
        where = ns.all(*conditions)
        value = c("precision_sum") if stat.ap else c("recall")
        aggregates[f"{name}_sum"] = ns.sum(ns.when(where, value).otherwise(ns.lit(0.0)))
        aggregates[f"{name}_count"] = ns.count_where(where)
    sums = rows.aggregate(keys, aggregates)
    points = {name: len(RECALL_THRESHOLDS) if stat.ap else 1 for name, stat in COCO_STATS.items()}
    return sums.select({
        **{k: c(k) for k in keys},
        **{n: ns.ratio(c(f"{n}_sum"), ns.to_float(c(f"{n}_count")) * ns.lit(float(p))) for n, p in points.items()},
    })  # fmt: skip
