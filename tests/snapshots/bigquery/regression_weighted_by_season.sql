WITH fm_input AS (
  SELECT
    `season` AS fm_g0,
    CAST(`bikers` AS FLOAT64) AS y_true,
    CAST(`predicted_bikers` AS FLOAT64) AS y_pred,
    CAST(`w` AS FLOAT64) AS sample_weight
  FROM `bikes`
), fm_means AS (
  SELECT
    fm_g0,
    CASE
      WHEN MIN(
        CASE
          WHEN sample_weight > 0
          THEN CAST(y_true AS FLOAT64)
          ELSE CAST(NULL AS FLOAT64)
        END
      ) = MAX(
        CASE
          WHEN sample_weight > 0
          THEN CAST(y_true AS FLOAT64)
          ELSE CAST(NULL AS FLOAT64)
        END
      )
      THEN MIN(
        CASE
          WHEN sample_weight > 0
          THEN CAST(y_true AS FLOAT64)
          ELSE CAST(NULL AS FLOAT64)
        END
      )
      ELSE CASE
        WHEN COALESCE(SUM(sample_weight), 0) = 0
        THEN CAST(NULL AS FLOAT64)
        ELSE COALESCE(SUM(sample_weight * CAST(y_true AS FLOAT64)), 0) / COALESCE(SUM(sample_weight), 0)
      END
    END AS mean_y_true
  FROM fm_input
  GROUP BY
    fm_g0
), fm_statistics AS (
  SELECT
    fm_g0,
    COUNT(*) AS n_rows,
    COALESCE(
      SUM(sample_weight * POWER(CAST(y_true AS FLOAT64) - CAST(y_pred AS FLOAT64), 2)),
      0
    ) AS sum_sq_error,
    COALESCE(SUM(sample_weight * POWER(CAST(y_true AS FLOAT64) - mean_y_true, 2)), 0) AS ss_total,
    COALESCE(SUM(sample_weight), 0) AS sum_weight,
    COUNTIF(
      y_true IS NULL OR NOT (
        CAST(y_true AS FLOAT64) - CAST(y_true AS FLOAT64) = 0
      )
    ) AS invalid_finite_y_true,
    COUNTIF(
      y_pred IS NULL OR NOT (
        CAST(y_pred AS FLOAT64) - CAST(y_pred AS FLOAT64) = 0
      )
    ) AS invalid_finite_y_pred,
    COUNTIF(
      sample_weight IS NULL
      OR NOT (
        CAST(sample_weight AS FLOAT64) - CAST(sample_weight AS FLOAT64) = 0
        AND CAST(sample_weight AS FLOAT64) >= 0
      )
    ) AS invalid_weight_sample_weight
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
      ABS(CAST(y_true AS FLOAT64) - CAST(y_pred AS FLOAT64)) AS y_score,
      sample_weight * CAST(CAST(TRUE = TRUE AS INT64) AS FLOAT64) AS pw
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
      CAST(0.0 AS FLOAT64)
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
            1 - CAST(0.5 AS FLOAT64)
          ) * pos_total + 1e-12 * pos_total
          AND tp_prev >= (
            1 - CAST(0.5 AS FLOAT64)
          ) * pos_total - 1e-12 * pos_total
          THEN CAST(1.0 AS FLOAT64)
          ELSE CAST(NULL AS FLOAT64)
        END
      ) > 0
      AND NOT (
        MIN(
          CASE
            WHEN pw > 0 AND tp <= (
              1 - CAST(0.5 AS FLOAT64)
            ) * pos_total + 1e-12 * pos_total
            THEN y_score
            ELSE CAST(NULL AS FLOAT64)
          END
        ) IS NULL
      )
      THEN MIN(
        CASE
          WHEN pw > 0
          AND tp_prev <= (
            1 - CAST(0.5 AS FLOAT64)
          ) * pos_total + 1e-12 * pos_total
          THEN y_score
          ELSE CAST(NULL AS FLOAT64)
        END
      ) / 2 + MIN(
        CASE
          WHEN pw > 0 AND tp <= (
            1 - CAST(0.5 AS FLOAT64)
          ) * pos_total + 1e-12 * pos_total
          THEN y_score
          ELSE CAST(NULL AS FLOAT64)
        END
      ) / 2
      ELSE MIN(
        CASE
          WHEN pw > 0
          AND tp_prev <= (
            1 - CAST(0.5 AS FLOAT64)
          ) * pos_total + 1e-12 * pos_total
          THEN y_score
          ELSE CAST(NULL AS FLOAT64)
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
      THEN CAST(NULL AS FLOAT64)
      WHEN ss_total <> 0 AND sum_sq_error <> 0
      THEN 1 - sum_sq_error / ss_total
      WHEN TRUE AND sum_sq_error = 0
      THEN CAST(1.0 AS FLOAT64)
      WHEN TRUE
      THEN CAST(0.0 AS FLOAT64)
      WHEN sum_sq_error = 0 AND ss_total = 0
      THEN CAST(NULL AS FLOAT64)
      WHEN ss_total = 0
      THEN CAST('-inf' AS FLOAT64)
      ELSE CAST(1.0 AS FLOAT64)
    END AS r2_score,
    SQRT(
      CASE
        WHEN invalid_finite_y_true + invalid_finite_y_pred + invalid_weight_sample_weight > 0
        OR sum_weight = 0
        THEN CAST(NULL AS FLOAT64)
        ELSE sum_sq_error / sum_weight
      END
    ) AS root_mean_squared_error,
    CASE
      WHEN invalid_finite_y_true + invalid_finite_y_pred + invalid_weight_sample_weight > 0
      OR sum_weight = 0
      THEN CAST(NULL AS FLOAT64)
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
    fm_g0 AS `season`,
    n_rows AS n_rows,
    r2_score AS `r2_score`,
    root_mean_squared_error AS `root_mean_squared_error`,
    median_absolute_error AS `median_absolute_error`
  FROM (
    SELECT
      fm_g0,
      n_rows,
      CASE
        WHEN r2_score - r2_score = 0
        THEN LEAST(r2_score, CAST(1.0 AS FLOAT64))
        ELSE CAST(NULL AS FLOAT64)
      END AS r2_score,
      CASE
        WHEN root_mean_squared_error - root_mean_squared_error = 0
        THEN root_mean_squared_error
        ELSE CAST(NULL AS FLOAT64)
      END AS root_mean_squared_error,
      CASE
        WHEN median_absolute_error - median_absolute_error = 0
        THEN median_absolute_error
        ELSE CAST(NULL AS FLOAT64)
      END AS median_absolute_error
    FROM fm_values
  ) AS fm_8
) AS fm_9
ORDER BY
  `season` NULLS LAST
