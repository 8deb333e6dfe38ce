WITH fm_input AS (
  SELECT
    COLUMNS(LAMBDA fm_name : fm_name = 'student') AS fm_g0,
    COLUMNS(LAMBDA fm_name : fm_name = 'default') AS y_true,
    CAST(COLUMNS(LAMBDA fm_name : fm_name = 'p_default') AS DOUBLE) AS y_score,
    CAST(1.0 AS DOUBLE) AS sample_weight
  FROM "preds"
), fm_scores AS (
  SELECT
    fm_g0,
    y_score,
    COALESCE(SUM(pw), 0) AS pw,
    COALESCE(SUM(nw), 0) AS nw
  FROM (
    SELECT
      fm_g0,
      y_score,
      sample_weight * CAST(y_true = 1 AS DOUBLE) AS pw,
      sample_weight * CAST(y_true = 0 AS DOUBLE) AS nw
    FROM fm_input
  ) AS fm_1
  GROUP BY
    fm_g0,
    y_score
), fm_curve AS (
  SELECT
    fm_g0,
    y_score,
    pw,
    nw,
    tp,
    fp,
    pos_total,
    neg_total,
    next_pw,
    next_nw,
    is_first,
    pos_total - tp AS fn,
    neg_total - fp AS tn
  FROM (
    SELECT
      fm_g0,
      y_score,
      pw,
      nw,
      SUM(pw) OVER (
        PARTITION BY fm_g0
        ORDER BY y_score DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS tp,
      SUM(nw) OVER (
        PARTITION BY fm_g0
        ORDER BY y_score DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
      ) AS fp,
      SUM(pw) OVER (PARTITION BY fm_g0) AS pos_total,
      SUM(nw) OVER (PARTITION BY fm_g0) AS neg_total,
      LEAD(pw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_pw,
      LEAD(nw) OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) AS next_nw,
      ROW_NUMBER() OVER (PARTITION BY fm_g0 ORDER BY y_score DESC) = 1 AS is_first
    FROM (
      SELECT
        fm_g0,
        y_score,
        pw,
        nw
      FROM fm_scores
      WHERE
        pw + nw > 0
    ) AS fm_2
  ) AS fm_3
), fm_points AS (
  SELECT
    fm_g0,
    threshold,
    CASE WHEN 0 > 0 OR neg_total = 0 THEN CAST(NULL AS DOUBLE) ELSE fp / neg_total END AS fpr,
    CASE WHEN 0 > 0 OR pos_total = 0 THEN CAST(NULL AS DOUBLE) ELSE tp / pos_total END AS tpr,
    tp,
    fp,
    tn,
    fn
  FROM (
    SELECT
      fm_g0,
      pos_total,
      neg_total,
      threshold,
      tp,
      fp,
      tn,
      fn
    FROM (
      SELECT
        fm_g0,
        pos_total,
        neg_total,
        y_score AS threshold,
        tp,
        fp,
        tn,
        fn
      FROM (
        SELECT
          fm_g0,
          y_score,
          pw,
          nw,
          tp,
          fp,
          pos_total,
          neg_total,
          next_pw,
          next_nw,
          is_first,
          fn,
          tn
        FROM fm_curve
        WHERE
          NOT TRUE OR is_first OR next_pw IS NULL OR next_pw <> pw OR next_nw <> nw
      ) AS fm_4
    ) AS fm_7
    UNION ALL
    SELECT
      fm_g0,
      pos_total,
      neg_total,
      threshold,
      tp,
      fp,
      tn,
      fn
    FROM (
      SELECT
        fm_g0,
        pos_total,
        neg_total,
        CAST('inf' AS DOUBLE) AS threshold,
        CAST(0.0 AS DOUBLE) AS tp,
        CAST(0.0 AS DOUBLE) AS fp,
        neg_total AS tn,
        pos_total AS fn
      FROM (
        SELECT
          fm_g0,
          pos_total,
          neg_total
        FROM (
          SELECT
            fm_g0,
            MAX(pos_total) AS pos_total,
            MAX(neg_total) AS neg_total
          FROM fm_curve
          GROUP BY
            fm_g0
        ) AS fm_5
        WHERE
          NOT (
            pos_total IS NULL
          )
      ) AS fm_6
    ) AS fm_8
  ) AS fm_9
), fm_statistics AS (
  SELECT
    fm_g0,
    COUNT(*) AS n_rows,
    COUNT(*) FILTER(WHERE
      y_true IS NULL OR NOT (
        y_true = 1 OR y_true = 0
      )) AS invalid_label_y_true,
    COUNT(*) FILTER(WHERE
      y_score IS NULL OR NOT ISFINITE(CAST(y_score AS DOUBLE))) AS invalid_finite_y_score
  FROM fm_input
  GROUP BY
    fm_g0
)
SELECT
  fm_g0 AS "student",
  "threshold",
  "fpr",
  "tpr",
  "tp",
  "fp",
  "tn",
  "fn"
FROM (
  SELECT
    fm_g0,
    threshold,
    fpr,
    tpr,
    tp,
    fp,
    tn,
    fn
  FROM (
    SELECT
      fm_g0,
      threshold,
      fpr,
      tpr,
      tp,
      fp,
      tn,
      fn
    FROM (
      SELECT
        fm_g0,
        fm_valid,
        threshold,
        fpr,
        tpr,
        tp,
        fp,
        tn,
        fn
      FROM (
        SELECT
          fm_10.fm_g0,
          fm_10.fm_valid,
          fm_11.threshold,
          fm_11.fpr,
          fm_11.tpr,
          fm_11.tp,
          fm_11.fp,
          fm_11.tn,
          fm_11.fn
        FROM (
          SELECT
            fm_g0,
            invalid_label_y_true + invalid_finite_y_score = 0 AS fm_valid
          FROM fm_statistics
        ) AS fm_10
        LEFT JOIN (
          SELECT
            fm_g0,
            threshold,
            fpr,
            tpr,
            tp,
            fp,
            tn,
            fn,
            TRUE AS fm_valid
          FROM fm_points
        ) AS fm_11
          ON fm_10.fm_g0 IS NOT DISTINCT FROM fm_11.fm_g0
          AND fm_10.fm_valid IS NOT DISTINCT FROM fm_11.fm_valid
      ) AS fm_12
      WHERE
        NOT fm_valid OR NOT (
          threshold IS NULL
        )
    ) AS fm_13
  ) AS fm_14
) AS fm_15
ORDER BY
  "fm_g0" ASC,
  "threshold" DESC
