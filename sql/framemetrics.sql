-- framemetrics: model-evaluation metrics as DuckDB macros.
--
-- Load into any DuckDB session, then use the macros like aggregate functions:
--
--     .read sql/framemetrics.sql
--     SELECT country, fm_f1_score(y, p >= 0.5) AS f1, fm_log_loss(y, p) AS log_loss
--     FROM preds GROUP BY ALL;
--
-- Every metric is written in two stages, as in the Python package:
--   1. statistics  (fm_stat_*, fm_invalid_*): aggregates gathered per group;
--   2. formulas    (fm_formula_*): arithmetic over those statistics.
-- framemetrics.sql.query() inlines these macro bodies into plain SQL (with a
-- first pass for group means and a window for the ranking curve), so this file
-- is the only SQL definition of each statistic and formula. The user-facing
-- aggregate macros fm_<metric name> at the end compose the stages; as an
-- aggregate has a single pass, they compute the two-pass statistics (centred
-- sums of squares, the ranking curve) over the group's rows collected in a list.
--
-- Conventions
--   * Statistics are DOUBLE sums (weighted counts never overflow).
--   * A group with any invalid input row (n_invalid > 0) gets NULL.
--   * Undefined values (a zero denominator) are `zero_division`, NULL by default.
--   * Divisions are guarded explicitly: DuckDB returns inf/NaN for x / 0.


-- ---------------------------------------------------------------------------
-- Input checks: the number of rows of one column outside its domain.
-- ---------------------------------------------------------------------------

-- A class label: must equal pos_label or neg_label (NULL and NaN are invalid).
CREATE OR REPLACE MACRO fm_invalid_label(x, pos_label, neg_label) AS
    count(*) FILTER (WHERE x IS NULL OR (x <> pos_label AND x <> neg_label));

-- A score to threshold: any number but NULL or NaN (+-inf are ordered scores).
CREATE OR REPLACE MACRO fm_invalid_score(x) AS
    count(*) FILTER (WHERE x IS NULL OR isnan(x));

-- A probability: a number in [0, 1].
CREATE OR REPLACE MACRO fm_invalid_probability(x) AS
    count(*) FILTER (WHERE x IS NULL OR isnan(x) OR x < 0 OR x > 1);

-- A regression target or prediction: a finite number.
CREATE OR REPLACE MACRO fm_invalid_finite(x) AS
    count(*) FILTER (WHERE x IS NULL OR NOT isfinite(x));

-- A sample weight: a finite number >= 0.
CREATE OR REPLACE MACRO fm_invalid_weight(x) AS
    count(*) FILTER (WHERE x IS NULL OR NOT isfinite(x) OR x < 0);

-- Inputs of a logarithmic error: log(1 + x) needs x > -1.
CREATE OR REPLACE MACRO fm_invalid_log1p(x) AS
    count(*) FILTER (WHERE x <= -1);


-- ---------------------------------------------------------------------------
-- Stage 1, confusion matrix: weighted counts of the four cells.
-- ---------------------------------------------------------------------------

-- Rows of the group (unweighted): r2 is undefined below two rows.
CREATE OR REPLACE MACRO fm_stat_n_rows() AS
    count(*);

CREATE OR REPLACE MACRO fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label) AS
    sum(sample_weight * CAST(y_true = pos_label AND y_pred = pos_label AS DOUBLE));

CREATE OR REPLACE MACRO fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label) AS
    sum(sample_weight * CAST(y_true = neg_label AND y_pred = pos_label AS DOUBLE));

CREATE OR REPLACE MACRO fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label) AS
    sum(sample_weight * CAST(y_true = pos_label AND y_pred = neg_label AS DOUBLE));

CREATE OR REPLACE MACRO fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label) AS
    sum(sample_weight * CAST(y_true = neg_label AND y_pred = neg_label AS DOUBLE));


-- ---------------------------------------------------------------------------
-- Stage 1, probabilities: weighted sums of per-row losses.
-- ---------------------------------------------------------------------------

CREATE OR REPLACE MACRO fm_stat_sum_weight(sample_weight) AS
    sum(CAST(sample_weight AS DOUBLE));

-- -log(p) of the true class, p clipped to [eps, 1 - eps] with eps = 2**-52,
-- exactly as scikit-learn clips both columns of [1 - p, p].
CREATE OR REPLACE MACRO fm_stat_sum_log_loss(y_true, y_score, sample_weight, pos_label) AS
    sum(sample_weight * -ln(greatest(least(
        CASE WHEN y_true = pos_label THEN CAST(y_score AS DOUBLE) ELSE 1 - CAST(y_score AS DOUBLE) END,
        CAST(0.9999999999999998 AS DOUBLE)), CAST(2.220446049250313e-16 AS DOUBLE))));

CREATE OR REPLACE MACRO fm_stat_sum_brier(y_true, y_score, sample_weight, pos_label) AS
    sum(sample_weight * pow(CAST(y_true = pos_label AS DOUBLE) - CAST(y_score AS DOUBLE), 2));


-- ---------------------------------------------------------------------------
-- Stage 1, regression: weighted sums of per-row errors.
-- log1p(x) is written ln(1 + x) * x / ((1 + x) - 1) (Goldberg), exact to a
-- few ulps even for tiny x; DuckDB has no log1p.
-- ---------------------------------------------------------------------------

-- The error in DOUBLE: integer inputs never overflow.
CREATE OR REPLACE MACRO fm_error(y_true, y_pred) AS
    CAST(y_true AS DOUBLE) - CAST(y_pred AS DOUBLE);

CREATE OR REPLACE MACRO fm_stat_sum_sq_error(y_true, y_pred, sample_weight) AS
    sum(sample_weight * pow(fm_error(y_true, y_pred), 2));

CREATE OR REPLACE MACRO fm_stat_sum_abs_error(y_true, y_pred, sample_weight) AS
    sum(sample_weight * abs(fm_error(y_true, y_pred)));

CREATE OR REPLACE MACRO fm_log1p(x) AS
    CASE WHEN 1 + x = 1 THEN x ELSE ln(1 + x) * x / ((1 + x) - 1) END;

CREATE OR REPLACE MACRO fm_stat_sum_sq_log_error(y_true, y_pred, sample_weight) AS
    sum(sample_weight * pow(fm_log1p(CAST(y_true AS DOUBLE)) - fm_log1p(CAST(y_pred AS DOUBLE)), 2));

CREATE OR REPLACE MACRO fm_stat_sum_abs_pct_error(y_true, y_pred, sample_weight) AS
    sum(sample_weight * abs(fm_error(y_true, y_pred))
        / greatest(abs(CAST(y_true AS DOUBLE)), CAST(2.220446049250313e-16 AS DOUBLE)));

CREATE OR REPLACE MACRO fm_stat_sum_pinball(y_true, y_pred, sample_weight, alpha) AS
    sum(sample_weight * CASE WHEN fm_error(y_true, y_pred) >= 0 THEN alpha * fm_error(y_true, y_pred)
                             ELSE (alpha - 1) * fm_error(y_true, y_pred) END);

-- max |error| over the rows with a positive weight.
CREATE OR REPLACE MACRO fm_stat_max_abs_error(y_true, y_pred, sample_weight) AS
    max(CASE WHEN sample_weight > 0 THEN abs(fm_error(y_true, y_pred)) END);

CREATE OR REPLACE MACRO fm_stat_median_abs_error(y_true, y_pred) AS
    median(abs(fm_error(y_true, y_pred)));

-- The weighted group means that r2 and explained variance centre on. A value
-- constant over the rows of positive weight is its own mean exactly, so that
-- its centred sum of squares is exactly 0 (a weighted average of equal values
-- can be off by an ulp, which would make R^2 explode).
CREATE OR REPLACE MACRO fm_group_mean(x, sample_weight) AS
    CASE WHEN min(CASE WHEN sample_weight > 0 THEN x END) = max(CASE WHEN sample_weight > 0 THEN x END)
         THEN min(CASE WHEN sample_weight > 0 THEN x END)
         ELSE sum(sample_weight * x) / nullif(sum(sample_weight), 0) END;

CREATE OR REPLACE MACRO fm_stat_mean_y_true(y_true, sample_weight) AS
    fm_group_mean(CAST(y_true AS DOUBLE), sample_weight);

CREATE OR REPLACE MACRO fm_stat_mean_error(y_true, y_pred, sample_weight) AS
    fm_group_mean(fm_error(y_true, y_pred), sample_weight);

-- Centred sums of squares, given the group means above (two passes, exact).
CREATE OR REPLACE MACRO fm_stat_ss_total(y_true, sample_weight, mean_y_true) AS
    sum(sample_weight * pow(CAST(y_true AS DOUBLE) - mean_y_true, 2));

CREATE OR REPLACE MACRO fm_stat_ss_error_deviation(y_true, y_pred, sample_weight, mean_error) AS
    sum(sample_weight * pow(fm_error(y_true, y_pred) - mean_error, 2));

-- The same centred sum of squares as one aggregate, for the user-facing macros
-- below (an aggregate macro cannot take two passes): the group's (value,
-- weight) pairs are collected in one list, the mean m comes from the macros
-- above, and list_resize repeats m beside every pair so that no lambda
-- recomputes it. (Lambda parameters get fm_ names: DuckDB binds a column of the
-- same name before them.)
CREATE OR REPLACE MACRO fm_list_ss_deviation(pairs, m) AS
    list_sum(list_transform(list_zip(pairs, list_resize([m], len(pairs), m)),
        lambda fm_pair: fm_pair[1].w * pow(fm_pair[1].x - fm_pair[2], 2)));


-- ---------------------------------------------------------------------------
-- Stage 1, ranking: the curve stage shared by every ranking metric (the role
-- of scikit-learn's _binary_clf_curve). Per group and distinct score:
--   pw, nw  the positive and negative weight at that score (fm_score_*),
--   tp, fp  their cumulative sums over scores >= that score (a window),
--   pos_total, neg_total  the group's totals (a window over the partition),
-- then per group the aggregates below over those rows (fm_stat_*).
-- ---------------------------------------------------------------------------

-- The approximate mode (bins=): scores binned to the lower edge of their bin of
-- width 1 / bins, an order-preserving map; every ranking metric is then exact
-- for the binned score, and roc_auc_error_bound bounds the AUC's change.
CREATE OR REPLACE MACRO fm_bin_score(y_score, bins) AS
    floor(y_score * bins) / bins;

CREATE OR REPLACE MACRO fm_score_pw(y_true, sample_weight, pos_label) AS
    sum(sample_weight * CAST(y_true = pos_label AS DOUBLE));

CREATE OR REPLACE MACRO fm_score_nw(y_true, sample_weight, neg_label) AS
    sum(sample_weight * CAST(y_true = neg_label AS DOUBLE));

-- Trapezoidal ROC AUC numerator: ties count 1/2, so AUC = sum nw (2 tp - pw) / (2 P N).
CREATE OR REPLACE MACRO fm_stat_auc_sum(pw, nw, tp, fp) AS
    sum(nw * (2 * tp - pw));

-- Weight of the (positive, negative) pairs tied at a score: each counts 1/2 in
-- the AUC, where breaking the tie would count 0 or 1. With binned scores
-- (bins=) it bounds the binning error: |AUC - exact AUC| <= sum pw nw / (2 P N).
CREATE OR REPLACE MACRO fm_stat_auc_tie_sum(pw, nw, tp, fp) AS
    sum(pw * nw);

-- Average precision numerator: sum over scores of pw * precision at that score.
CREATE OR REPLACE MACRO fm_stat_ap_sum(pw, nw, tp, fp) AS
    sum(CASE WHEN pw > 0 THEN pw * tp / (tp + fp) ELSE 0 END);

-- Trapezoidal area under the PR curve, times P: each score adds its recall step
-- pw / P times the mean of its precision and the previous point's (1 at the top,
-- scikit-learn's (recall 0, precision 1) point). tp_prev and fp_prev are the sums
-- over strictly higher scores, summed rather than subtracted (no cancellation).
CREATE OR REPLACE MACRO fm_stat_pr_auc_sum(pw, tp, fp, tp_prev, fp_prev) AS
    sum(CASE WHEN pw > 0 THEN pw * (tp / (tp + fp)
        + CASE WHEN tp_prev + fp_prev > 0 THEN tp_prev / (tp_prev + fp_prev) ELSE 1 END) / 2 ELSE 0 END);

-- Area of the ROC curve left of FPR = max_fpr: per score, the trapezoid from the
-- previous (higher-score) point, cut at max_fpr with the linear interpolation.
-- The previous point is (tp - pw, fp - nw): rates are normalised, so the
-- subtraction costs ~1e-16 and AUC queries need no extra window.
CREATE OR REPLACE MACRO fm_stat_partial_auc(pw, nw, tp, fp, pos_total, neg_total, max_fpr) AS
    sum(CASE WHEN pos_total = 0 OR neg_total = 0 THEN NULL
             WHEN fp / neg_total <= max_fpr
                 THEN (fp / neg_total - (fp - nw) / neg_total) * (tp / pos_total + (tp - pw) / pos_total) / 2
             WHEN (fp - nw) / neg_total < max_fpr
                 THEN (max_fpr - (fp - nw) / neg_total)
                    * ((tp - pw) / pos_total + ((tp - pw) / pos_total + (tp / pos_total - (tp - pw) / pos_total)
                       * (max_fpr - (fp - nw) / neg_total) / (fp / neg_total - (fp - nw) / neg_total))) / 2
             ELSE 0 END);

-- Kolmogorov-Smirnov: the largest gap TPR - FPR over thresholds.
CREATE OR REPLACE MACRO fm_ks_gap(tp, fp, pos_total, neg_total) AS
    CASE WHEN pos_total > 0 AND neg_total > 0 THEN tp / pos_total - fp / neg_total END;

CREATE OR REPLACE MACRO fm_stat_ks_max(tp, fp, pos_total, neg_total) AS
    max(fm_ks_gap(tp, fp, pos_total, neg_total));

-- The KS threshold: the highest score whose gap is within 1e-12 of the group's
-- largest gap_max (a window beside the curve), so that gaps equal in exact
-- arithmetic but rounded apart (1/3 - 0 and 2/3 - 1/3) tie.
CREATE OR REPLACE MACRO fm_stat_ks_score(y_score, tp, fp, pos_total, neg_total, gap_max) AS
    max(CASE WHEN fm_ks_gap(tp, fp, pos_total, neg_total) >= gap_max - 1e-12 THEN y_score END);

-- Break-even point numerator: the positive weight ranked among the top P, a
-- score of weight pw + nw straddling rank P sharing its pw pro rata (the
-- expected count when tied rows are ordered at random). tp + fp - pw - nw is
-- the weight ranked above the score.
CREATE OR REPLACE MACRO fm_stat_bep_tp(pw, nw, tp, fp, pos_total) AS
    sum(CASE WHEN pw + nw > 0
             THEN pw * least(greatest((pos_total - (tp + fp - pw - nw)) / (pw + nw), 0), 1) ELSE 0 END);

CREATE OR REPLACE MACRO fm_stat_sum_pos(pw, nw, tp, fp) AS
    sum(pw);

CREATE OR REPLACE MACRO fm_stat_sum_neg(pw, nw, tp, fp) AS
    sum(nw);

-- One group's rows as a list of (s, pw, nw), for fm_list_ranking.
CREATE OR REPLACE MACRO fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label) AS
    list(struct_pack(
        s := CAST(y_score AS DOUBLE),
        pw := sample_weight * CAST(y_true = pos_label AS DOUBLE),
        nw := sample_weight * CAST(y_true = neg_label AS DOUBLE)));

-- The curve stage over one group's list of (s, pw, nw) rows, for the aggregate
-- macros below: the same per-score sums, window and statistics, as a struct.
CREATE OR REPLACE MACRO fm_list_ranking(rows, max_fpr) AS (
    SELECT struct_pack(
        auc_sum := fm_stat_auc_sum(pw, nw, tp, fp),
        partial_auc := fm_stat_partial_auc(pw, nw, tp, fp, pos_total, neg_total, max_fpr),
        auc_tie_sum := fm_stat_auc_tie_sum(pw, nw, tp, fp),
        ap_sum := fm_stat_ap_sum(pw, nw, tp, fp),
        pr_auc_sum := fm_stat_pr_auc_sum(pw, tp, fp, tp_prev, fp_prev),
        ks_max := fm_stat_ks_max(tp, fp, pos_total, neg_total),
        ks_score := fm_stat_ks_score(y_score, tp, fp, pos_total, neg_total, gap_max),
        bep_tp := fm_stat_bep_tp(pw, nw, tp, fp, pos_total),
        sum_pos := fm_stat_sum_pos(pw, nw, tp, fp),
        sum_neg := fm_stat_sum_neg(pw, nw, tp, fp))
    FROM (SELECT *, max(fm_ks_gap(tp, fp, pos_total, neg_total)) OVER () AS gap_max FROM (
        SELECT y_score, pw, nw,
            sum(pw) OVER (ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS tp,
            sum(nw) OVER (ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS fp,
            coalesce(sum(pw) OVER (ORDER BY y_score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS tp_prev,
            coalesce(sum(nw) OVER (ORDER BY y_score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS fp_prev,
            sum(pw) OVER () AS pos_total,
            sum(nw) OVER () AS neg_total
        FROM (SELECT fm_row.s AS y_score, sum(fm_row.pw) AS pw, sum(fm_row.nw) AS nw
              FROM (SELECT unnest(rows) AS fm_row) GROUP BY fm_row.s))));


-- ---------------------------------------------------------------------------
-- Curves (roc_curve, precision_recall_curve, det_curve): the curve stage
-- keeps the scores of positive weight (scikit-learn drops zero weights) and
-- adds, per score, fn and tn (the weights strictly below it, summed rather than
-- subtracted), next_pw and next_nw (the next lower score's, NULL at the last)
-- and is_first (the highest score). Each curve is these points, filtered by
-- drop_intermediate as scikit-learn, plus the point at threshold +inf where
-- nothing is predicted positive (tp = fp = 0); then rates per point.
-- ---------------------------------------------------------------------------

-- ROC: drop a point collinear with its neighbours (equal steps before and after).
CREATE OR REPLACE MACRO fm_curve_keep_roc(pw, nw, next_pw, next_nw, is_first, drop_intermediate) AS
    NOT drop_intermediate OR is_first OR next_pw IS NULL OR next_pw <> pw OR next_nw <> nw;

-- PR: drop a point whose tp equals the previous and the next point's.
CREATE OR REPLACE MACRO fm_curve_keep_pr(pw, next_pw, is_first, drop_intermediate) AS
    NOT drop_intermediate OR is_first OR next_pw IS NULL OR pw > 0 OR next_pw > 0;

-- DET: the same rule, the +inf point being the first.
CREATE OR REPLACE MACRO fm_curve_keep_det(pw, next_pw, drop_intermediate) AS
    NOT drop_intermediate OR next_pw IS NULL OR pw > 0 OR next_pw > 0;

-- A rate count / total (fpr, tpr, fnr, recall); NULL without a total or with invalid input.
CREATE OR REPLACE MACRO fm_curve_rate(count, total, n_invalid) AS
    CASE WHEN n_invalid > 0 OR total = 0 THEN NULL ELSE count / total END;

-- Precision, 1 at the +inf point (scikit-learn's final (recall 0, precision 1) point).
CREATE OR REPLACE MACRO fm_curve_precision(tp, fp, n_invalid) AS
    CASE WHEN n_invalid > 0 THEN NULL WHEN tp + fp = 0 THEN 1 ELSE tp / (tp + fp) END;

-- Thinning a curve to max_points (M4, Jugel et al., VLDB 2014): the x rate
-- (fpr for ROC and DET, recall for PR) is cut into columns = max_points / 4
-- equal-width columns, and per group and column only the first and last
-- points (by threshold) and the lowest and highest (by the y rate) are kept.
-- Drawn at up to `columns` pixels wide, the thinned polyline covers the same
-- pixels as the full curve. Points with a NULL rate share column -1.
CREATE OR REPLACE MACRO fm_curve_column(x, columns) AS
    CASE WHEN x IS NULL THEN -1 ELSE least(CAST(floor(x * columns) AS BIGINT), columns - 1) END;


-- ---------------------------------------------------------------------------
-- Calibration (reliability) curve: scikit-learn's calibration_curve with
-- strategy="uniform". The edges are numpy.linspace(0, 1, n_bins + 1), i.e.
-- e_i = i * (1 / n_bins), and a score p falls in bin #{i in 1..n_bins-1 : e_i < p}
-- (numpy.searchsorted, side "left"). ceil(p * n_bins) - 1 is that count up to
-- one unit of rounding, corrected against the edges themselves.
-- ---------------------------------------------------------------------------

CREATE OR REPLACE MACRO fm_calibration_guess(p, n_bins) AS
    least(greatest(CAST(ceil(p * n_bins) AS BIGINT) - 1, 0), n_bins - 1);

CREATE OR REPLACE MACRO fm_calibration_bin(p, n_bins) AS
    CASE WHEN fm_calibration_guess(p, n_bins) >= 1
              AND p <= fm_calibration_guess(p, n_bins) * (CAST(1 AS DOUBLE) / n_bins)
             THEN fm_calibration_guess(p, n_bins) - 1
         WHEN fm_calibration_guess(p, n_bins) <= n_bins - 2
              AND p > (fm_calibration_guess(p, n_bins) + 1) * (CAST(1 AS DOUBLE) / n_bins)
             THEN fm_calibration_guess(p, n_bins) + 1
         ELSE fm_calibration_guess(p, n_bins) END;

-- prob_true and prob_pred of a bin: the weighted share of positives and the
-- weighted mean score; NULL when the bin's weight is 0.
CREATE OR REPLACE MACRO fm_calibration_ratio(part, total) AS
    CASE WHEN total = 0 THEN NULL ELSE part / total END;


-- ---------------------------------------------------------------------------
-- Stage 2, formulas (generated by framemetrics.sql.user_macros from framemetrics.core.formulas)
-- Each is a formula over the statistics of one group: NULL with an invalid
-- input row (n_invalid > 0), zero_division (NULL by default) where a
-- denominator is 0.
-- ---------------------------------------------------------------------------

-- confusion-matrix metrics

-- (tp + tn) / (tp + fp + fn + tn); null if the total weight is 0.
CREATE OR REPLACE MACRO fm_formula_accuracy_score(tp, fp, fn, tn, n_invalid) AS
    CASE WHEN n_invalid > 0 OR tp + fp + fn + tn = 0 THEN CAST(NULL AS DOUBLE) ELSE (tp + tn) / (tp
        + fp + fn + tn) END;

-- (fp + fn) / (tp + fp + fn + tn); null if the total weight is 0.
CREATE OR REPLACE MACRO fm_formula_error_rate(tp, fp, fn, tn, n_invalid) AS
    CASE WHEN n_invalid > 0 OR tp + fp + fn + tn = 0 THEN CAST(NULL AS DOUBLE) ELSE (fp + fn) / (tp
        + fp + fn + tn) END;

-- tp / (tp + fp); zero_division if tp + fp = 0.
CREATE OR REPLACE MACRO fm_formula_precision_score(tp, fp, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN tp + fp = 0 THEN zero_division ELSE tp /
        (tp + fp) END;

-- tp / (tp + fn); zero_division if tp + fn = 0.
CREATE OR REPLACE MACRO fm_formula_recall_score(tp, fn, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN tp + fn = 0 THEN zero_division ELSE tp /
        (tp + fn) END;

-- tn / (tn + fp); zero_division if tn + fp = 0.
CREATE OR REPLACE MACRO fm_formula_specificity_score(fp, tn, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN tn + fp = 0 THEN zero_division ELSE tn /
        (tn + fp) END;

-- fp / (fp + tn); zero_division if fp + tn = 0.
CREATE OR REPLACE MACRO fm_formula_false_positive_rate(fp, tn, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN fp + tn = 0 THEN zero_division ELSE fp /
        (fp + tn) END;

-- fn / (fn + tp); zero_division if fn + tp = 0.
CREATE OR REPLACE MACRO fm_formula_false_negative_rate(tp, fn, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN fn + tp = 0 THEN zero_division ELSE fn /
        (fn + tp) END;

-- tn / (tn + fn); zero_division if tn + fn = 0.
CREATE OR REPLACE MACRO fm_formula_negative_predictive_value(fn, tn, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN tn + fn = 0 THEN zero_division ELSE tn /
        (tn + fn) END;

-- 2 tp / (2 tp + fp + fn); zero_division if the denominator is 0.
CREATE OR REPLACE MACRO fm_formula_f1_score(tp, fp, fn, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN 2 * tp + fn + fp = 0 THEN zero_division
        ELSE 2 * tp / (2 * tp + fn + fp) END;

-- (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp); zero_division if the denominator is 0.
CREATE OR REPLACE MACRO fm_formula_fbeta_score(tp, fp, fn, n_invalid, beta, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN (1 + beta * beta) * tp + beta * beta * fn
        + fp = 0 THEN zero_division ELSE (1 + beta * beta) * tp / ((1 + beta * beta) * tp + beta *
        beta * fn + fp) END;

-- tp / (tp + fp + fn); zero_division if the denominator is 0.
CREATE OR REPLACE MACRO fm_formula_jaccard_score(tp, fp, fn, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN tp + fp + fn = 0 THEN zero_division ELSE
        tp / (tp + fp + fn) END;

-- Mean recall of the classes present in y_true (scikit-learn's nanmean of tp/(tp+fn), tn/(tn+fp)).
CREATE OR REPLACE MACRO fm_formula_balanced_accuracy_score(tp, fp, fn, tn, n_invalid) AS
    CASE WHEN n_invalid > 0 OR tp + fp + fn + tn = 0 THEN CAST(NULL AS DOUBLE) WHEN tp + fn = 0 THEN
        tn / (tn + fp) WHEN tn + fp = 0 THEN tp / (tp + fn) ELSE (tp / (tp + fn) + tn / (tn + fp)) /
        2 END;

-- scikit-learn's (c s - t.p) / sqrt((s^2 - p.p)(s^2 - t.t)) over the cells; 0 if undefined.
CREATE OR REPLACE MACRO fm_formula_matthews_corrcoef(tp, fp, fn, tn, n_invalid) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) WHEN (POWER(tp + fp + fn + tn, 2) - (POWER(tn
        + fn, 2) + POWER(fp + tp, 2))) * (POWER(tp + fp + fn + tn, 2) - (POWER(tn + fp, 2) +
        POWER(fn + tp, 2))) = 0 THEN CAST(0.0 AS DOUBLE) ELSE ((tp + tn) * (tp + fp + fn + tn) -
        ((tn + fp) * (tn + fn) + (fn + tp) * (fp + tp))) / SQRT((POWER(tp + fp + fn + tn, 2) -
        (POWER(tn + fn, 2) + POWER(fp + tp, 2))) * (POWER(tp + fp + fn + tn, 2) - (POWER(tn + fp, 2)
        + POWER(fn + tp, 2)))) END;

-- 1 - (fp + fn) / E, E = (pred_neg true_pos + pred_pos true_neg) / total the chance disagreement.
CREATE OR REPLACE MACRO fm_formula_cohen_kappa_score(tp, fp, fn, tn, n_invalid) AS
    CASE WHEN n_invalid > 0 OR tp + fp + fn + tn = 0 OR ((tn + fn) * (fn + tp) + (fp + tp) * (tn +
        fp)) / (tp + fp + fn + tn) = 0 THEN CAST(NULL AS DOUBLE) ELSE 1 - (fp + fn) / (((tn + fn) *
        (fn + tp) + (fp + tp) * (tn + fp)) / (tp + fp + fn + tn)) END;

-- (tp + fn) / (tp + fp + fn + tn); null if the total weight is 0.
CREATE OR REPLACE MACRO fm_formula_prevalence(tp, fp, fn, tn, n_invalid) AS
    CASE WHEN n_invalid > 0 OR tp + fp + fn + tn = 0 THEN CAST(NULL AS DOUBLE) ELSE (tp + fn) / (tp
        + fp + fn + tn) END;

-- probability metrics

-- sum w (-log q) / sum w, q the probability of the true class clipped to [eps, 1 - eps].
CREATE OR REPLACE MACRO fm_formula_log_loss(sum_log_loss, sum_weight, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_log_loss /
        sum_weight END;

-- sum w (y - p)^2 / sum w.
CREATE OR REPLACE MACRO fm_formula_brier_score_loss(sum_brier, sum_weight, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_brier / sum_weight
        END;

-- ranking metrics

-- sum nw (2 tp - pw) / (2 P N); with max_fpr = m < 1, McClish's (1 + (A - m^2/2) / (m - m^2/2)) / 2.
CREATE OR REPLACE MACRO fm_formula_roc_auc_score(auc_sum, partial_auc, sum_pos, sum_neg, n_invalid, max_fpr) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 OR sum_neg = 0 OR max_fpr <= 0 OR max_fpr > 1 THEN
        CAST(NULL AS DOUBLE) WHEN max_fpr IS NULL OR max_fpr = 1 THEN auc_sum / (2 * sum_pos *
        sum_neg) ELSE (1 + (partial_auc - max_fpr * max_fpr / 2) / (max_fpr - max_fpr * max_fpr /
        2)) / 2 END;

-- 2 AUC - 1.
CREATE OR REPLACE MACRO fm_formula_gini_score(auc_sum, sum_pos, sum_neg, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 OR sum_neg = 0 THEN CAST(NULL AS DOUBLE) ELSE 2 *
        (auc_sum / (2 * sum_pos * sum_neg)) - 1 END;

-- sum pw nw / (2 P N): half the weight of tied (positive, negative) pairs.
CREATE OR REPLACE MACRO fm_formula_roc_auc_error_bound(auc_tie_sum, sum_pos, sum_neg, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 OR sum_neg = 0 THEN CAST(NULL AS DOUBLE) ELSE auc_tie_sum
        / (2 * sum_pos * sum_neg) END;

-- sum pw tp / (tp + fp) / P, the step-wise sum; null when P = 0.
CREATE OR REPLACE MACRO fm_formula_average_precision_score(ap_sum, sum_pos, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 THEN CAST(NULL AS DOUBLE) ELSE ap_sum / sum_pos END;

-- Trapezoid under the PR curve from (recall 0, precision 1); null when P = 0.
CREATE OR REPLACE MACRO fm_formula_pr_auc_score(pr_auc_sum, sum_pos, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 THEN CAST(NULL AS DOUBLE) ELSE pr_auc_sum / sum_pos END;

-- max over scores of tp / P - fp / N.
CREATE OR REPLACE MACRO fm_formula_ks_statistic(ks_max, sum_pos, sum_neg, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 OR sum_neg = 0 THEN CAST(NULL AS DOUBLE) ELSE ks_max END;

-- The highest score whose gap is within KS_TOLERANCE of the largest; +inf when that is 0.
CREATE OR REPLACE MACRO fm_formula_ks_threshold(ks_max, ks_score, sum_pos, sum_neg, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 OR sum_neg = 0 THEN CAST(NULL AS DOUBLE) ELSE CASE WHEN
        ks_max <= CAST(1e-12 AS DOUBLE) THEN CAST('inf' AS DOUBLE) ELSE ks_score END END;

-- tp* / P once the top P of the weight is predicted positive (ties pro rata); null when P = 0.
CREATE OR REPLACE MACRO fm_formula_break_even_point(bep_tp, sum_pos, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_pos = 0 THEN CAST(NULL AS DOUBLE) ELSE bep_tp / sum_pos END;

-- regression metrics

-- sum w (y - y_pred)^2 / sum w.
CREATE OR REPLACE MACRO fm_formula_mean_squared_error(sum_sq_error, sum_weight, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_sq_error /
        sum_weight END;

-- sqrt(sum w (y - y_pred)^2 / sum w).
CREATE OR REPLACE MACRO fm_formula_root_mean_squared_error(sum_sq_error, sum_weight, n_invalid) AS
    SQRT(CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_sq_error /
        sum_weight END);

-- sum w |y - y_pred| / sum w.
CREATE OR REPLACE MACRO fm_formula_mean_absolute_error(sum_abs_error, sum_weight, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_abs_error /
        sum_weight END;

-- sum w (log1p(y) - log1p(y_pred))^2 / sum w.
CREATE OR REPLACE MACRO fm_formula_mean_squared_log_error(sum_sq_log_error, sum_weight, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_sq_log_error /
        sum_weight END;

-- sqrt(sum w (log1p(y) - log1p(y_pred))^2 / sum w).
CREATE OR REPLACE MACRO fm_formula_root_mean_squared_log_error(sum_sq_log_error, sum_weight, n_invalid) AS
    SQRT(CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_sq_log_error /
        sum_weight END);

-- sum w |y - y_pred| / max(|y|, eps) / sum w.
CREATE OR REPLACE MACRO fm_formula_mean_absolute_percentage_error(sum_abs_pct_error, sum_weight, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_abs_pct_error /
        sum_weight END;

-- sum w max(alpha e, (alpha - 1) e) / sum w, e = y - y_pred.
CREATE OR REPLACE MACRO fm_formula_mean_pinball_loss(sum_pinball, sum_weight, n_invalid) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_pinball /
        sum_weight END;

-- 1 - ss_res / ss_tot; force_finite: 1 if ss_res = 0, else 0 if ss_tot = 0; null below two rows.
CREATE OR REPLACE MACRO fm_formula_r2_score(sum_sq_error, ss_total, sum_weight, n_rows, n_invalid, force_finite) AS
    CASE WHEN n_invalid > 0 OR n_rows < 2 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) WHEN ss_total
        <> 0 AND sum_sq_error <> 0 THEN 1 - sum_sq_error / ss_total WHEN force_finite AND
        sum_sq_error = 0 THEN CAST(1.0 AS DOUBLE) WHEN force_finite THEN CAST(0.0 AS DOUBLE) WHEN
        sum_sq_error = 0 AND ss_total = 0 THEN CAST(NULL AS DOUBLE) WHEN ss_total = 0 THEN
        CAST('-inf' AS DOUBLE) ELSE CAST(1.0 AS DOUBLE) END;

-- 1 - var_w(y - y_pred) / var_w(y), with the same force_finite rules as R^2.
CREATE OR REPLACE MACRO fm_formula_explained_variance_score(ss_error_deviation, ss_total, sum_weight, n_invalid, force_finite) AS
    CASE WHEN n_invalid > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) WHEN ss_total <> 0 AND
        ss_error_deviation <> 0 THEN 1 - ss_error_deviation / sum_weight / (ss_total / sum_weight)
        WHEN force_finite AND ss_error_deviation = 0 THEN CAST(1.0 AS DOUBLE) WHEN force_finite THEN
        CAST(0.0 AS DOUBLE) WHEN ss_error_deviation = 0 AND ss_total = 0 THEN CAST(NULL AS DOUBLE)
        WHEN ss_total = 0 THEN CAST('-inf' AS DOUBLE) ELSE CAST(1.0 AS DOUBLE) END;

-- max |y - y_pred| over the rows of positive weight.
CREATE OR REPLACE MACRO fm_formula_max_error(max_abs_error, n_invalid) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) ELSE max_abs_error END;

-- median |y - y_pred| (unweighted).
CREATE OR REPLACE MACRO fm_formula_median_absolute_error(median_abs_error, n_invalid) AS
    CASE WHEN n_invalid > 0 THEN CAST(NULL AS DOUBLE) ELSE median_abs_error END;

-- End of the generated formulas.

-- ---------------------------------------------------------------------------
-- Multiclass (framemetrics.multiclass). Stage 1 gathers per group the
-- confusion cells (true class, predicted class, weight) and the row sums of
-- the class scores s_0 .. s_{K-1}; per class, tp, fp, fn and support come from
-- the cells and the binary formulas above give precision, recall, F, Jaccard;
-- per class j, the ranking statistics come from the binary curve macros over
-- the score s_j with class j positive. These macros average per-class values
-- over the classes of a group (stage 2b) and give the per-group formulas (2c).
-- ---------------------------------------------------------------------------

-- A class label when labels are given: NULL or not in the list is invalid.
CREATE OR REPLACE MACRO fm_invalid_class(x, labels) AS
    count(*) FILTER (WHERE x IS NULL OR NOT list_contains(labels, x));

-- A class label when the classes are inferred: NULL is invalid (NaN too, through fm_invalid_score).
CREATE OR REPLACE MACRO fm_invalid_present(x) AS
    count(*) FILTER (WHERE x IS NULL);

-- Class probabilities of a row must sum to 1: |sum - 1| <= 1e-5 (numpy.allclose, as
-- scikit-learn's multiclass ROC AUC); a NaN sum is invalid, a NULL one is counted elsewhere.
CREATE OR REPLACE MACRO fm_invalid_simplex(row_sum) AS
    count(*) FILTER (WHERE NOT abs(row_sum - 1) <= 1e-5);

-- Log loss of one row: p_true, the probability of its true class, clipped as fm_stat_sum_log_loss.
CREATE OR REPLACE MACRO fm_mc_log_loss_row(p_true) AS
    -ln(greatest(least(CAST(p_true AS DOUBLE), CAST(0.9999999999999998 AS DOUBLE)), CAST(2.220446049250313e-16 AS DOUBLE)));

-- One class's term of a row's Brier score: (s_c - [c is the true class])^2.
CREATE OR REPLACE MACRO fm_mc_brier_term(s, c, true_index) AS
    pow(CAST(s AS DOUBLE) - CAST(c = true_index AS DOUBLE), 2);

-- 1 if class c ranks above the true class: a higher score, or a tied score and a
-- higher position (scikit-learn's top_k_accuracy_score: a stable sort, reversed).
CREATE OR REPLACE MACRO fm_mc_ranks_above(s, c, p_true, true_index) AS
    CASE WHEN s > p_true OR (s = p_true AND c > true_index) THEN 1 ELSE 0 END;

-- Cohen's kappa disagreement weight of the classes at positions i and j.
CREATE OR REPLACE MACRO fm_mc_kappa_weight(i, j, weights) AS
    CASE WHEN weights = 'linear' THEN CAST(abs(i - j) AS DOUBLE)
         WHEN weights = 'quadratic' THEN CAST((i - j) * (i - j) AS DOUBLE)
         ELSE CAST(i <> j AS DOUBLE) END;

-- Macro average of per-class values: an undefined class (NULL) counts as zero_division,
-- or is left out when zero_division is NULL (scikit-learn's zero_division=np.nan).
CREATE OR REPLACE MACRO fm_mc_macro(value, zero_division) AS
    avg(coalesce(value, zero_division));

-- Weighted average by support over the classes with a value; their plain mean if
-- that support is 0 (scikit-learn's _nanaverage).
CREATE OR REPLACE MACRO fm_mc_weighted(value, support, zero_division) AS
    CASE WHEN sum(support) FILTER (WHERE coalesce(value, zero_division) IS NOT NULL) > 0
         THEN sum(support * coalesce(value, zero_division))
              / sum(support) FILTER (WHERE coalesce(value, zero_division) IS NOT NULL)
         ELSE avg(coalesce(value, zero_division)) END;

-- Jaccard's averages (scikit-learn's plain numpy.average): an undefined class makes them NULL.
CREATE OR REPLACE MACRO fm_mc_macro_strict(value, zero_division) AS
    CASE WHEN count(*) > count(coalesce(value, zero_division)) THEN NULL
         ELSE avg(coalesce(value, zero_division)) END;

CREATE OR REPLACE MACRO fm_mc_weighted_strict(value, support, zero_division) AS
    CASE WHEN count(*) > count(coalesce(value, zero_division)) THEN NULL
         WHEN sum(support) > 0 THEN sum(support * coalesce(value, zero_division)) / sum(support)
         ELSE avg(coalesce(value, zero_division)) END;

-- Hand & Till's pair score of classes a, b: (A(a|b) + A(b|a)) / 2, each A an AUC
-- auc_sum / (2 P_a P_b) over the rows of the two classes.
CREATE OR REPLACE MACRO fm_mc_ovo_pair(auc_sum_ab, auc_sum_ba, pos_a, pos_b) AS
    (auc_sum_ab + auc_sum_ba) / (4 * pos_a * pos_b);

CREATE OR REPLACE MACRO fm_formula_mc_share(part, whole, n_invalid) AS
    CASE WHEN n_invalid > 0 OR whole = 0 THEN NULL ELSE part / whole END;

-- A per-group average (or any value of stage 2b), NULL with invalid input.
CREATE OR REPLACE MACRO fm_formula_mc_value(value, n_invalid) AS
    CASE WHEN n_invalid > 0 THEN NULL ELSE value END;

-- Balanced accuracy: the mean recall over the m classes with support;
-- adjusted: (score - 1/m) / (1 - 1/m), NULL when m = 1.
CREATE OR REPLACE MACRO fm_formula_mc_balanced_accuracy(mean_recall, n_true_classes, adjusted, n_invalid) AS
    CASE WHEN n_invalid > 0 OR n_true_classes = 0 THEN NULL
         WHEN NOT adjusted THEN mean_recall
         WHEN n_true_classes = 1 THEN NULL
         ELSE (mean_recall - 1 / n_true_classes) / (1 - 1 / n_true_classes) END;

-- Multiclass MCC (Gorodkin's R_K, scikit-learn's): (c s - t.p) / sqrt((s^2 - t.t)(s^2 - p.p)),
-- c correct, s total, t and p the true and predicted weights per class; 0 when only one
-- class is true or only one is predicted (a zero denominator).
CREATE OR REPLACE MACRO fm_formula_mc_matthews(correct, total, true_dot_pred, true_dot_true, pred_dot_pred, n_true_classes, n_pred_classes, n_invalid) AS
    CASE WHEN n_invalid > 0 THEN NULL
         WHEN n_true_classes < 2 OR n_pred_classes < 2 THEN 0.0
         ELSE (correct * total - true_dot_pred)
              / sqrt((total * total - true_dot_true) * (total * total - pred_dot_pred)) END;

-- Cohen's kappa: 1 - observed / expected disagreement, each weighted by fm_mc_kappa_weight;
-- expected = sum_ij w_ij t_i p_j / total. NULL when expected is 0 (scikit-learn: NaN).
CREATE OR REPLACE MACRO fm_formula_mc_kappa(observed, expected, n_invalid) AS
    CASE WHEN n_invalid > 0 OR expected IS NULL OR expected = 0 THEN NULL ELSE 1 - observed / expected END;

-- Textbook macro-F1 (Zhou, Machine Learning, 2.3): the harmonic mean of macro-precision
-- and macro-recall, not the mean of per-class F1.
CREATE OR REPLACE MACRO fm_formula_mc_harmonic_f1(macro_precision, macro_recall, n_invalid, zero_division) AS
    CASE WHEN n_invalid > 0 OR macro_precision IS NULL OR macro_recall IS NULL THEN NULL
         WHEN macro_precision + macro_recall = 0 THEN zero_division
         ELSE 2 * macro_precision * macro_recall / (macro_precision + macro_recall) END;

-- Multiclass Brier score: mean over rows of sum_c (s_c - [c true])^2, halved with fewer
-- than 3 classes (scikit-learn's scale_by_half='auto').
CREATE OR REPLACE MACRO fm_formula_mc_brier(sum_brier, total, n_classes, n_invalid) AS
    CASE WHEN n_invalid > 0 OR total = 0 THEN NULL
         WHEN n_classes < 3 THEN sum_brier / total / 2
         ELSE sum_brier / total END;

-- ---------------------------------------------------------------------------
-- User-facing metrics (generated by framemetrics.sql.user_macros: do not edit)
-- Each composes its statistics and its formula. Call with named optional
-- arguments, e.g. fm_fbeta_score(y, p >= 0.5, sample_weight := w, beta := 2)
-- ---------------------------------------------------------------------------

-- confusion-matrix metrics

CREATE OR REPLACE MACRO fm_accuracy_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_accuracy_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_error_rate(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_error_rate(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_precision_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_precision_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_recall_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_recall_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_specificity_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_specificity_score(
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_false_positive_rate(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_false_positive_rate(
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_false_negative_rate(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_false_negative_rate(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_negative_predictive_value(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_negative_predictive_value(
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_f1_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_f1_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_fbeta_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, beta := 1.0, zero_division := NULL) AS
    fm_formula_fbeta_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        beta,
        zero_division);

CREATE OR REPLACE MACRO fm_jaccard_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0, zero_division := NULL) AS
    fm_formula_jaccard_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight),
        zero_division);

CREATE OR REPLACE MACRO fm_balanced_accuracy_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_balanced_accuracy_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_matthews_corrcoef(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_matthews_corrcoef(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_cohen_kappa_score(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_cohen_kappa_score(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_prevalence(y_true, y_pred, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_prevalence(
        fm_stat_tp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fp(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_fn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_stat_tn(y_true, y_pred, sample_weight, pos_label, neg_label),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_label(y_pred, pos_label, neg_label)
        + fm_invalid_weight(sample_weight));

-- probability metrics

CREATE OR REPLACE MACRO fm_log_loss(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_log_loss(
        fm_stat_sum_log_loss(y_true, y_score, sample_weight, pos_label),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_probability(y_score)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_brier_score_loss(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_brier_score_loss(
        fm_stat_sum_brier(y_true, y_score, sample_weight, pos_label),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_probability(y_score)
        + fm_invalid_weight(sample_weight));

-- ranking metrics

CREATE OR REPLACE MACRO fm_roc_auc_score(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0, max_fpr := NULL) AS
    fm_formula_roc_auc_score(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), max_fpr)).auc_sum,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), max_fpr)).partial_auc,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), max_fpr)).sum_pos,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), max_fpr)).sum_neg,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight),
        max_fpr);

CREATE OR REPLACE MACRO fm_gini_score(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_gini_score(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).auc_sum,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_pos,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_neg,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_roc_auc_error_bound(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_roc_auc_error_bound(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).auc_tie_sum,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_pos,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_neg,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_average_precision_score(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_average_precision_score(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).ap_sum,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_pos,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_pr_auc_score(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_pr_auc_score(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).pr_auc_sum,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_pos,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_ks_statistic(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_ks_statistic(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).ks_max,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_pos,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_neg,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_ks_threshold(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_ks_threshold(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).ks_max,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).ks_score,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_pos,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_neg,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_break_even_point(y_true, y_score, sample_weight := 1, pos_label := 1, neg_label := 0) AS
    fm_formula_break_even_point(
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).bep_tp,
        (fm_list_ranking(fm_ranking_rows(y_true, y_score, sample_weight, pos_label, neg_label), 1)).sum_pos,
        fm_invalid_label(y_true, pos_label, neg_label)
        + fm_invalid_finite(y_score)
        + fm_invalid_weight(sample_weight));

-- regression metrics

CREATE OR REPLACE MACRO fm_mean_squared_error(y_true, y_pred, sample_weight := 1) AS
    fm_formula_mean_squared_error(
        fm_stat_sum_sq_error(y_true, y_pred, sample_weight),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_root_mean_squared_error(y_true, y_pred, sample_weight := 1) AS
    fm_formula_root_mean_squared_error(
        fm_stat_sum_sq_error(y_true, y_pred, sample_weight),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_mean_absolute_error(y_true, y_pred, sample_weight := 1) AS
    fm_formula_mean_absolute_error(
        fm_stat_sum_abs_error(y_true, y_pred, sample_weight),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_mean_squared_log_error(y_true, y_pred, sample_weight := 1) AS
    fm_formula_mean_squared_log_error(
        fm_stat_sum_sq_log_error(y_true, y_pred, sample_weight),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_log1p(y_true)
        + fm_invalid_log1p(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_root_mean_squared_log_error(y_true, y_pred, sample_weight := 1) AS
    fm_formula_root_mean_squared_log_error(
        fm_stat_sum_sq_log_error(y_true, y_pred, sample_weight),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_log1p(y_true)
        + fm_invalid_log1p(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_mean_absolute_percentage_error(y_true, y_pred, sample_weight := 1) AS
    fm_formula_mean_absolute_percentage_error(
        fm_stat_sum_abs_pct_error(y_true, y_pred, sample_weight),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_mean_pinball_loss(y_true, y_pred, sample_weight := 1, alpha := 0.5) AS
    fm_formula_mean_pinball_loss(
        fm_stat_sum_pinball(y_true, y_pred, sample_weight, alpha),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_r2_score(y_true, y_pred, sample_weight := 1, force_finite := TRUE) AS
    fm_formula_r2_score(
        fm_stat_sum_sq_error(y_true, y_pred, sample_weight),
        fm_list_ss_deviation(
            list(struct_pack(x := CAST(y_true AS DOUBLE), w := CAST(sample_weight AS DOUBLE))),
            fm_stat_mean_y_true(y_true, sample_weight)),
        fm_stat_sum_weight(sample_weight),
        fm_stat_n_rows(),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight),
        force_finite);

CREATE OR REPLACE MACRO fm_explained_variance_score(y_true, y_pred, sample_weight := 1, force_finite := TRUE) AS
    fm_formula_explained_variance_score(
        fm_list_ss_deviation(
            list(struct_pack(x := fm_error(y_true, y_pred), w := CAST(sample_weight AS DOUBLE))),
            fm_stat_mean_error(y_true, y_pred, sample_weight)),
        fm_list_ss_deviation(
            list(struct_pack(x := CAST(y_true AS DOUBLE), w := CAST(sample_weight AS DOUBLE))),
            fm_stat_mean_y_true(y_true, sample_weight)),
        fm_stat_sum_weight(sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight),
        force_finite);

CREATE OR REPLACE MACRO fm_max_error(y_true, y_pred, sample_weight := 1) AS
    fm_formula_max_error(
        fm_stat_max_abs_error(y_true, y_pred, sample_weight),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred)
        + fm_invalid_weight(sample_weight));

CREATE OR REPLACE MACRO fm_median_absolute_error(y_true, y_pred) AS
    fm_formula_median_absolute_error(
        fm_stat_median_abs_error(y_true, y_pred),
        fm_invalid_finite(y_true)
        + fm_invalid_finite(y_pred));

-- curves: table macros, one row per point, e.g.
--   FROM fm_roc_curve('preds', y, p, segment := country, weight := w);
-- Parameters get names unlike the query's own columns (truth, score, weight),
-- as DuckDB substitutes a macro parameter wherever its name appears. Several
-- group columns: segment := (country, month), a STRUCT.

CREATE OR REPLACE MACRO fm_roc_curve(tbl, truth, score, segment := NULL, weight := 1, pos_label := 1, neg_label := 0, drop_intermediate := TRUE) AS TABLE
WITH fm_input AS (
    SELECT
        "segment" AS fm_g0,
        truth AS y_true,
        CAST(score AS DOUBLE) AS y_score,
        CAST(weight AS DOUBLE) AS sample_weight
    FROM query_table(tbl)
),
fm_statistics AS (
    SELECT
        fm_input.fm_g0 AS fm_g0,
        count(*) AS n_rows,
        count(*) FILTER (WHERE y_true IS NULL OR (y_true <> pos_label AND y_true <> neg_label)) AS invalid_label_y_true,
        count(*) FILTER (WHERE y_score IS NULL OR NOT isfinite(y_score)) AS invalid_finite_y_score,
        count(*) FILTER (WHERE sample_weight IS NULL OR NOT isfinite(sample_weight) OR sample_weight < 0) AS invalid_weight_sample_weight
    FROM fm_input
    GROUP BY fm_input.fm_g0
),
fm_scores AS (
    SELECT
        fm_g0,
        y_score,
        sum(sample_weight * CAST(y_true = pos_label AS DOUBLE)) AS pw,
        sum(sample_weight * CAST(y_true = neg_label AS DOUBLE)) AS nw
    FROM fm_input
    GROUP BY fm_g0, y_score
),
fm_curve AS (
    SELECT
        fm_g0,
        y_score,
        pw,
        nw,
        sum(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS tp,
        sum(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS fp,
        coalesce(sum(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS fn,
        coalesce(sum(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS tn,
        sum(pw) OVER (PARTITION BY fm_g0) AS pos_total,
        sum(nw) OVER (PARTITION BY fm_g0) AS neg_total,
        lead(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_pw,
        lead(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_nw,
        row_number() OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) = 1 AS is_first
    FROM fm_scores WHERE pw + nw > 0
),
fm_points AS (
    SELECT fm_g0, y_score AS threshold, tp, fp, tn, fn, pos_total, neg_total FROM fm_curve WHERE NOT drop_intermediate OR is_first OR next_pw IS NULL OR next_pw <> pw OR next_nw <> nw
    UNION ALL
    SELECT fm_g0, CAST('inf' AS DOUBLE) AS threshold, 0, 0, neg_total, pos_total, pos_total, neg_total FROM fm_curve WHERE is_first
)
SELECT
    fm_statistics.fm_g0 AS "segment",
    threshold,
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 OR neg_total = 0 THEN NULL ELSE fp / neg_total END AS fpr,
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 OR pos_total = 0 THEN NULL ELSE tp / pos_total END AS tpr,
    fm_points.tp AS tp,
    fm_points.fp AS fp,
    fm_points.tn AS tn,
    fm_points.fn AS fn
FROM fm_points JOIN fm_statistics ON fm_points.fm_g0 IS NOT DISTINCT FROM fm_statistics.fm_g0
ORDER BY fm_statistics.fm_g0 NULLS LAST, threshold DESC;

CREATE OR REPLACE MACRO fm_precision_recall_curve(tbl, truth, score, segment := NULL, weight := 1, pos_label := 1, neg_label := 0, drop_intermediate := FALSE) AS TABLE
WITH fm_input AS (
    SELECT
        "segment" AS fm_g0,
        truth AS y_true,
        CAST(score AS DOUBLE) AS y_score,
        CAST(weight AS DOUBLE) AS sample_weight
    FROM query_table(tbl)
),
fm_statistics AS (
    SELECT
        fm_input.fm_g0 AS fm_g0,
        count(*) AS n_rows,
        count(*) FILTER (WHERE y_true IS NULL OR (y_true <> pos_label AND y_true <> neg_label)) AS invalid_label_y_true,
        count(*) FILTER (WHERE y_score IS NULL OR NOT isfinite(y_score)) AS invalid_finite_y_score,
        count(*) FILTER (WHERE sample_weight IS NULL OR NOT isfinite(sample_weight) OR sample_weight < 0) AS invalid_weight_sample_weight
    FROM fm_input
    GROUP BY fm_input.fm_g0
),
fm_scores AS (
    SELECT
        fm_g0,
        y_score,
        sum(sample_weight * CAST(y_true = pos_label AS DOUBLE)) AS pw,
        sum(sample_weight * CAST(y_true = neg_label AS DOUBLE)) AS nw
    FROM fm_input
    GROUP BY fm_g0, y_score
),
fm_curve AS (
    SELECT
        fm_g0,
        y_score,
        pw,
        nw,
        sum(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS tp,
        sum(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS fp,
        coalesce(sum(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS fn,
        coalesce(sum(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS tn,
        sum(pw) OVER (PARTITION BY fm_g0) AS pos_total,
        sum(nw) OVER (PARTITION BY fm_g0) AS neg_total,
        lead(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_pw,
        lead(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_nw,
        row_number() OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) = 1 AS is_first
    FROM fm_scores WHERE pw + nw > 0
),
fm_points AS (
    SELECT fm_g0, y_score AS threshold, tp, fp, tn, fn, pos_total, neg_total FROM fm_curve WHERE NOT drop_intermediate OR is_first OR next_pw IS NULL OR pw > 0 OR next_pw > 0
    UNION ALL
    SELECT fm_g0, CAST('inf' AS DOUBLE) AS threshold, 0, 0, neg_total, pos_total, pos_total, neg_total FROM fm_curve WHERE is_first
)
SELECT
    fm_statistics.fm_g0 AS "segment",
    threshold,
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 THEN NULL WHEN tp + fp = 0 THEN 1 ELSE tp / (tp + fp) END AS precision,
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 OR pos_total = 0 THEN NULL ELSE tp / pos_total END AS recall,
    fm_points.tp AS tp,
    fm_points.fp AS fp,
    fm_points.tn AS tn,
    fm_points.fn AS fn
FROM fm_points JOIN fm_statistics ON fm_points.fm_g0 IS NOT DISTINCT FROM fm_statistics.fm_g0
ORDER BY fm_statistics.fm_g0 NULLS LAST, threshold ASC;

CREATE OR REPLACE MACRO fm_det_curve(tbl, truth, score, segment := NULL, weight := 1, pos_label := 1, neg_label := 0, drop_intermediate := FALSE) AS TABLE
WITH fm_input AS (
    SELECT
        "segment" AS fm_g0,
        truth AS y_true,
        CAST(score AS DOUBLE) AS y_score,
        CAST(weight AS DOUBLE) AS sample_weight
    FROM query_table(tbl)
),
fm_statistics AS (
    SELECT
        fm_input.fm_g0 AS fm_g0,
        count(*) AS n_rows,
        count(*) FILTER (WHERE y_true IS NULL OR (y_true <> pos_label AND y_true <> neg_label)) AS invalid_label_y_true,
        count(*) FILTER (WHERE y_score IS NULL OR NOT isfinite(y_score)) AS invalid_finite_y_score,
        count(*) FILTER (WHERE sample_weight IS NULL OR NOT isfinite(sample_weight) OR sample_weight < 0) AS invalid_weight_sample_weight
    FROM fm_input
    GROUP BY fm_input.fm_g0
),
fm_scores AS (
    SELECT
        fm_g0,
        y_score,
        sum(sample_weight * CAST(y_true = pos_label AS DOUBLE)) AS pw,
        sum(sample_weight * CAST(y_true = neg_label AS DOUBLE)) AS nw
    FROM fm_input
    GROUP BY fm_g0, y_score
),
fm_curve AS (
    SELECT
        fm_g0,
        y_score,
        pw,
        nw,
        sum(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS tp,
        sum(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING) AS fp,
        coalesce(sum(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS fn,
        coalesce(sum(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS tn,
        sum(pw) OVER (PARTITION BY fm_g0) AS pos_total,
        sum(nw) OVER (PARTITION BY fm_g0) AS neg_total,
        lead(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_pw,
        lead(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_nw,
        row_number() OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) = 1 AS is_first
    FROM fm_scores WHERE pw + nw > 0
),
fm_points AS (
    SELECT fm_g0, y_score AS threshold, tp, fp, tn, fn, pos_total, neg_total FROM fm_curve WHERE NOT drop_intermediate OR next_pw IS NULL OR pw > 0 OR next_pw > 0
    UNION ALL
    SELECT fm_g0, CAST('inf' AS DOUBLE) AS threshold, 0, 0, neg_total, pos_total, pos_total, neg_total FROM fm_curve WHERE is_first
),
fm_ends AS (
    SELECT
        *,
        min(threshold) FILTER (WHERE fp = 0) OVER (PARTITION BY fm_g0) AS fm_first,
        max(threshold) FILTER (WHERE fn = 0) OVER (PARTITION BY fm_g0) AS fm_last
    FROM fm_points
)
SELECT
    fm_statistics.fm_g0 AS "segment",
    threshold,
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 OR neg_total = 0 THEN NULL ELSE fp / neg_total END AS fpr,
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 OR pos_total = 0 THEN NULL ELSE fn / pos_total END AS fnr,
    fm_ends.tp AS tp,
    fm_ends.fp AS fp,
    fm_ends.tn AS tn,
    fm_ends.fn AS fn
FROM fm_ends JOIN fm_statistics ON fm_ends.fm_g0 IS NOT DISTINCT FROM fm_statistics.fm_g0
WHERE threshold <= fm_first AND threshold >= fm_last AND pos_total > 0 AND neg_total > 0
ORDER BY fm_statistics.fm_g0 NULLS LAST, threshold ASC;
