WITH fm_input AS (
    SELECT
        "student" AS fm_g0,
        "default" AS y_true,
        CASE WHEN CAST("p_default" AS DOUBLE) >= CAST(0.5 AS DOUBLE) THEN 1 ELSE 0 END AS y_pred,
        CAST("p_default" AS DOUBLE) AS y_score,
        CAST("w" AS DOUBLE) AS sample_weight
    FROM "preds"
),
fm_statistics AS (
    SELECT
        fm_input.fm_g0 AS fm_g0,
        count(*) AS n_rows,
        sum(sample_weight * CAST(y_true = 1 AND y_pred = 1 AS DOUBLE)) AS tp,
        sum(sample_weight * CAST(y_true = 0 AND y_pred = 1 AS DOUBLE)) AS fp,
        sum(sample_weight * CAST(y_true = 1 AND y_pred = 0 AS DOUBLE)) AS fn,
        count(*) FILTER (WHERE y_true IS NULL OR (y_true <> 1 AND y_true <> 0)) AS invalid_label_y_true,
        count(*) FILTER (WHERE y_score IS NULL OR NOT isfinite(y_score)) AS invalid_finite_y_score,
        count(*) FILTER (WHERE sample_weight IS NULL OR NOT isfinite(sample_weight) OR sample_weight < 0) AS invalid_weight_sample_weight,
        count(*) FILTER (WHERE y_score IS NULL OR isnan(y_score)) AS invalid_score_y_score
    FROM fm_input
    GROUP BY fm_input.fm_g0
),
fm_scores AS (
    SELECT
        fm_g0,
        y_score,
        sum(sample_weight * CAST(y_true = 1 AS DOUBLE)) AS pw,
        sum(sample_weight * CAST(y_true = 0 AS DOUBLE)) AS nw
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
        sum(pw) OVER (PARTITION BY fm_g0) AS pos_total,
        sum(nw) OVER (PARTITION BY fm_g0) AS neg_total
    FROM fm_scores
),
fm_ranking AS (
    SELECT
        fm_g0,
        sum(nw * (2 * tp - pw)) AS auc_sum,
        sum(pw) AS sum_pos,
        sum(nw) AS sum_neg,
        sum(CASE WHEN pw > 0 THEN pw * tp / (tp + fp) ELSE 0 END) AS ap_sum
    FROM fm_curve
    GROUP BY fm_g0
)
SELECT
    fm_statistics.fm_g0 AS "student",
    n_rows,
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 OR sum_pos = 0 OR sum_neg = 0 OR CAST(NULL AS DOUBLE) <= 0 OR CAST(NULL AS DOUBLE) > 1 THEN CAST(NULL AS DOUBLE) WHEN CAST(NULL AS DOUBLE) IS NULL OR CAST(NULL AS DOUBLE) = 1 THEN auc_sum / (2 * sum_pos * sum_neg) ELSE (1 + (CAST(NULL AS DOUBLE) - CAST(NULL AS DOUBLE) * CAST(NULL AS DOUBLE) / 2) / (CAST(NULL AS DOUBLE) - CAST(NULL AS DOUBLE) * CAST(NULL AS DOUBLE) / 2)) / 2 END AS "roc_auc_score",
    CASE WHEN invalid_label_y_true + invalid_finite_y_score + invalid_weight_sample_weight > 0 OR sum_pos = 0 THEN CAST(NULL AS DOUBLE) ELSE ap_sum / sum_pos END AS "average_precision_score",
    CASE WHEN invalid_label_y_true + invalid_weight_sample_weight + invalid_score_y_score > 0 THEN CAST(NULL AS DOUBLE) WHEN 2 * tp + fn + fp = 0 THEN CAST(NULL AS DOUBLE) ELSE 2 * tp / (2 * tp + fn + fp) END AS "f1_score"
FROM fm_statistics JOIN fm_ranking ON fm_statistics.fm_g0 IS NOT DISTINCT FROM fm_ranking.fm_g0
ORDER BY fm_statistics.fm_g0 NULLS LAST
