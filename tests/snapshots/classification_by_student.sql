WITH fm_input AS (
    SELECT
        "student" AS fm_g0,
        "default" AS y_true,
        CASE WHEN CAST("p_default" AS DOUBLE) >= CAST(0.5 AS DOUBLE) THEN 1 ELSE 0 END AS y_pred,
        CAST("p_default" AS DOUBLE) AS y_score,
        CAST(1 AS DOUBLE) AS sample_weight
    FROM "preds"
),
fm_statistics AS (
    SELECT
        fm_input.fm_g0 AS fm_g0,
        count(*) AS n_rows,
        sum(sample_weight * CAST(y_true = 1 AND y_pred = 1 AS DOUBLE)) AS tp,
        sum(sample_weight * CAST(y_true = 0 AND y_pred = 1 AS DOUBLE)) AS fp,
        sum(sample_weight * CAST(y_true = 1 AND y_pred = 0 AS DOUBLE)) AS fn,
        sum(sample_weight * -ln(greatest(least( CASE WHEN y_true = 1 THEN CAST(y_score AS DOUBLE) ELSE 1 - CAST(y_score AS DOUBLE) END, CAST(0.9999999999999998 AS DOUBLE)), CAST(2.220446049250313e-16 AS DOUBLE)))) AS sum_log_loss,
        sum(CAST(sample_weight AS DOUBLE)) AS sum_weight,
        count(*) FILTER (WHERE y_true IS NULL OR (y_true <> 1 AND y_true <> 0)) AS invalid_label_y_true,
        count(*) FILTER (WHERE y_score IS NULL OR isnan(y_score)) AS invalid_score_y_score,
        count(*) FILTER (WHERE y_score IS NULL OR isnan(y_score) OR y_score < 0 OR y_score > 1) AS invalid_probability_y_score
    FROM fm_input
    GROUP BY fm_input.fm_g0
)
SELECT
    fm_statistics.fm_g0 AS "student",
    n_rows,
    CASE WHEN invalid_label_y_true + invalid_score_y_score > 0 THEN CAST(NULL AS DOUBLE) WHEN 2 * tp + fn + fp = 0 THEN CAST(NULL AS DOUBLE) ELSE 2 * tp / (2 * tp + fn + fp) END AS "f1_score",
    CASE WHEN invalid_label_y_true + invalid_probability_y_score > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_log_loss / sum_weight END AS "log_loss"
FROM fm_statistics
ORDER BY fm_statistics.fm_g0 NULLS LAST
