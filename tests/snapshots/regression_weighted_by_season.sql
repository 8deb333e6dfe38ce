WITH fm_input AS (
  SELECT
    COLUMNS(LAMBDA fm_name : fm_name = 'season') AS fm_g0,
    CAST(COLUMNS(LAMBDA fm_name : fm_name = 'bikers') AS DOUBLE) AS y_true,
    CAST(COLUMNS(LAMBDA fm_name : fm_name = 'predicted_bikers') AS DOUBLE) AS y_pred,
    CAST(COLUMNS(LAMBDA fm_name : fm_name = 'w') AS DOUBLE) AS sample_weight
  FROM "bikes"
), fm_means AS (
  SELECT
    fm_g0,
    CASE
      WHEN MIN(
        CASE
          WHEN sample_weight > 0
          THEN CAST(y_true AS DOUBLE)
          ELSE CAST(NULL AS DOUBLE)
        END
      ) = MAX(
        CASE
          WHEN sample_weight > 0
          THEN CAST(y_true AS DOUBLE)
          ELSE CAST(NULL AS DOUBLE)
        END
      )
      THEN MIN(
        CASE
          WHEN sample_weight > 0
          THEN CAST(y_true AS DOUBLE)
          ELSE CAST(NULL AS DOUBLE)
        END
      )
      ELSE CASE
        WHEN COALESCE(SUM(sample_weight), 0) = 0
        THEN CAST(NULL AS DOUBLE)
        ELSE COALESCE(SUM(sample_weight * CAST(y_true AS DOUBLE)), 0) / COALESCE(SUM(sample_weight), 0)
      END
    END AS mean_y_true
  FROM fm_input
  GROUP BY
    fm_g0
), fm_statistics AS (
  SELECT
    fm_g0,
    COUNT(*) AS n_rows,
    COALESCE(SUM(sample_weight * POWER(CAST(y_true AS DOUBLE) - CAST(y_pred AS DOUBLE), 2)), 0) AS sum_sq_error,
    COALESCE(SUM(sample_weight * POWER(CAST(y_true AS DOUBLE) - mean_y_true, 2)), 0) AS ss_total,
    COALESCE(SUM(sample_weight), 0) AS sum_weight,
    COUNT(*) FILTER(WHERE
      y_true IS NULL OR NOT ISFINITE(CAST(y_true AS DOUBLE))) AS invalid_finite_y_true,
    COUNT(*) FILTER(WHERE
      y_pred IS NULL OR NOT ISFINITE(CAST(y_pred AS DOUBLE))) AS invalid_finite_y_pred,
    COUNT(*) FILTER(WHERE
      sample_weight IS NULL
      OR NOT (
        ISFINITE(CAST(sample_weight AS DOUBLE)) AND CAST(sample_weight AS DOUBLE) >= 0
      )) AS invalid_weight_sample_weight
  FROM (
    SELECT
      fm_1.fm_g0,
      fm_1.y_true,
      fm_1.y_pred,
      fm_1.sample_weight,
      fm_2.mean_y_true
    FROM fm_input AS fm_1
    INNER JOIN fm_means AS fm_2
      ON fm_1.fm_g0 IS NOT DISTINCT FROM fm_2.fm_g0
  ) AS fm_3
  GROUP BY
    fm_g0
), fm_abs_error_scores AS (
  SELECT
    fm_g0,
    y_score,
    COALESCE(SUM(pw), 0) AS pw
  FROM (
    SELECT
      fm_g0,
      ABS(CAST(y_true AS DOUBLE) - CAST(y_pred AS DOUBLE)) AS y_score,
      sample_weight * CAST(TRUE = TRUE AS DOUBLE) AS pw
    FROM fm_input
  ) AS fm_4
  GROUP BY
    fm_g0,
    y_score
), fm_abs_error_curve AS (
  SELECT
    fm_g0,
    y_score,
    pw,
    SUM(pw) OVER (
      PARTITION BY fm_g0
      ORDER BY y_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS tp,
    SUM(pw) OVER (PARTITION BY fm_g0) AS pos_total,
    COALESCE(
      SUM(pw) OVER (
        PARTITION BY fm_g0
        ORDER BY y_score DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ),
      CAST(0.0 AS DOUBLE)
    ) AS tp_prev
  FROM fm_abs_error_scores
), fm_abs_error_ranking AS (
  SELECT
    fm_g0,
    CASE
      WHEN MAX(
        CASE
          WHEN pw > 0
          AND tp_prev <= (
            1 - CAST(0.5 AS DOUBLE)
          ) * pos_total + 1e-12 * pos_total
          AND tp_prev >= (
            1 - CAST(0.5 AS DOUBLE)
          ) * pos_total - 1e-12 * pos_total
          THEN CAST(1.0 AS DOUBLE)
          ELSE CAST(NULL AS DOUBLE)
        END
      ) > 0
      AND NOT (
        MIN(
          CASE
            WHEN pw > 0 AND tp <= (
              1 - CAST(0.5 AS DOUBLE)
            ) * pos_total + 1e-12 * pos_total
            THEN y_score
            ELSE CAST(NULL AS DOUBLE)
          END
        ) IS NULL
      )
      THEN MIN(
        CASE
          WHEN pw > 0
          AND tp_prev <= (
            1 - CAST(0.5 AS DOUBLE)
          ) * pos_total + 1e-12 * pos_total
          THEN y_score
          ELSE CAST(NULL AS DOUBLE)
        END
      ) / 2 + MIN(
        CASE
          WHEN pw > 0 AND tp <= (
            1 - CAST(0.5 AS DOUBLE)
          ) * pos_total + 1e-12 * pos_total
          THEN y_score
          ELSE CAST(NULL AS DOUBLE)
        END
      ) / 2
      ELSE MIN(
        CASE
          WHEN pw > 0
          AND tp_prev <= (
            1 - CAST(0.5 AS DOUBLE)
          ) * pos_total + 1e-12 * pos_total
          THEN y_score
          ELSE CAST(NULL AS DOUBLE)
        END
      )
    END AS median_abs_error
  FROM fm_abs_error_curve
  GROUP BY
    fm_g0
), fm_values AS (
  SELECT
    fm_g0,
    n_rows,
    CASE
      WHEN invalid_finite_y_true + invalid_finite_y_pred + invalid_weight_sample_weight > 0
      OR n_rows < 2
      OR sum_weight = 0
      THEN CAST(NULL AS DOUBLE)
      WHEN ss_total <> 0 AND sum_sq_error <> 0
      THEN 1 - sum_sq_error / ss_total
      WHEN TRUE AND sum_sq_error = 0
      THEN CAST(1.0 AS DOUBLE)
      WHEN TRUE
      THEN CAST(0.0 AS DOUBLE)
      WHEN sum_sq_error = 0 AND ss_total = 0
      THEN CAST(NULL AS DOUBLE)
      WHEN ss_total = 0
      THEN CAST('-inf' AS DOUBLE)
      ELSE CAST(1.0 AS DOUBLE)
    END AS r2_score,
    SQRT(
      CASE
        WHEN invalid_finite_y_true + invalid_finite_y_pred + invalid_weight_sample_weight > 0
        OR sum_weight = 0
        THEN CAST(NULL AS DOUBLE)
        ELSE sum_sq_error / sum_weight
      END
    ) AS root_mean_squared_error,
    CASE
      WHEN invalid_finite_y_true + invalid_finite_y_pred + invalid_weight_sample_weight > 0
      OR sum_weight = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE median_abs_error
    END AS median_absolute_error,
    invalid_finite_y_true,
    invalid_finite_y_pred,
    invalid_weight_sample_weight
  FROM (
    SELECT
      fm_5.fm_g0,
      fm_5.n_rows,
      fm_5.sum_sq_error,
      fm_5.ss_total,
      fm_5.sum_weight,
      fm_5.invalid_finite_y_true,
      fm_5.invalid_finite_y_pred,
      fm_5.invalid_weight_sample_weight,
      fm_6.median_abs_error
    FROM fm_statistics AS fm_5
    INNER JOIN fm_abs_error_ranking AS fm_6
      ON fm_5.fm_g0 IS NOT DISTINCT FROM fm_6.fm_g0
  ) AS fm_7
)
SELECT
  *
FROM (
  SELECT
    fm_g0 AS "season",
    n_rows AS n_rows,
    r2_score AS "r2_score",
    root_mean_squared_error AS "root_mean_squared_error",
    median_absolute_error AS "median_absolute_error"
  FROM (
    SELECT
      fm_g0,
      n_rows,
      CASE
        WHEN ISFINITE(r2_score)
        THEN LEAST(r2_score, CAST(1.0 AS DOUBLE))
        ELSE CAST(NULL AS DOUBLE)
      END AS r2_score,
      CASE
        WHEN ISFINITE(root_mean_squared_error)
        THEN root_mean_squared_error
        ELSE CAST(NULL AS DOUBLE)
      END AS root_mean_squared_error,
      CASE
        WHEN ISFINITE(median_absolute_error)
        THEN median_absolute_error
        ELSE CAST(NULL AS DOUBLE)
      END AS median_absolute_error
    FROM fm_values
  ) AS fm_8
) AS fm_9
ORDER BY
  "season"
