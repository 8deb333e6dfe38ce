WITH fm_input AS (
    SELECT
        "season" AS fm_g0,
        CAST("bikers" AS DOUBLE) AS y_true,
        CAST("predicted_bikers" AS DOUBLE) AS y_pred,
        CAST("w" AS DOUBLE) AS sample_weight
    FROM "bikes"
),
fm_means AS (
    SELECT
        fm_g0,
        (CASE WHEN min(CASE WHEN (sample_weight) > 0 THEN (CAST(y_true AS DOUBLE)) END) = max(CASE WHEN (sample_weight) > 0 THEN (CAST(y_true AS DOUBLE)) END) THEN min(CASE WHEN (sample_weight) > 0 THEN (CAST(y_true AS DOUBLE)) END) ELSE sum((sample_weight) * (CAST(y_true AS DOUBLE))) / nullif(sum((sample_weight)), 0) END) AS mean_y_true
    FROM fm_input
    GROUP BY fm_g0
),
fm_statistics AS (
    SELECT
        fm_input.fm_g0 AS fm_g0,
        count(*) AS n_rows,
        sum(sample_weight * pow((CAST((y_true) AS DOUBLE) - CAST((y_pred) AS DOUBLE)), 2)) AS sum_sq_error,
        sum(sample_weight * pow(CAST(y_true AS DOUBLE) - mean_y_true, 2)) AS ss_total,
        sum(CAST(sample_weight AS DOUBLE)) AS sum_weight,
        count(*) FILTER (WHERE y_true IS NULL OR NOT isfinite(y_true)) AS invalid_finite_y_true,
        count(*) FILTER (WHERE y_pred IS NULL OR NOT isfinite(y_pred)) AS invalid_finite_y_pred,
        count(*) FILTER (WHERE sample_weight IS NULL OR NOT isfinite(sample_weight) OR sample_weight < 0) AS invalid_weight_sample_weight
    FROM fm_input JOIN fm_means ON fm_input.fm_g0 IS NOT DISTINCT FROM fm_means.fm_g0
    GROUP BY fm_input.fm_g0
)
SELECT
    fm_statistics.fm_g0 AS "season",
    n_rows,
    CASE WHEN invalid_finite_y_true + invalid_finite_y_pred + invalid_weight_sample_weight > 0 OR n_rows < 2 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) WHEN ss_total <> 0 AND sum_sq_error <> 0 THEN 1 - sum_sq_error / ss_total WHEN TRUE AND sum_sq_error = 0 THEN CAST(1.0 AS DOUBLE) WHEN TRUE THEN CAST(0.0 AS DOUBLE) WHEN sum_sq_error = 0 AND ss_total = 0 THEN CAST(NULL AS DOUBLE) WHEN ss_total = 0 THEN CAST('-inf' AS DOUBLE) ELSE CAST(1.0 AS DOUBLE) END AS "r2_score",
    SQRT(CASE WHEN invalid_finite_y_true + invalid_finite_y_pred + invalid_weight_sample_weight > 0 OR sum_weight = 0 THEN CAST(NULL AS DOUBLE) ELSE sum_sq_error / sum_weight END) AS "root_mean_squared_error"
FROM fm_statistics
ORDER BY fm_statistics.fm_g0 NULLS LAST
