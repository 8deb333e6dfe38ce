"""Build the small sample prediction tables in ``data/``.

The raw data are two datasets shipped with the ``ISLP`` package, the companion
package of *An Introduction to Statistical Learning* (James, Witten, Hastie,
Tibshirani, Taylor):

* ``Default`` -- 10,000 simulated credit-card customers (default, student,
  balance, income).
* ``Bikeshare`` -- 8,645 hourly counts of Capital Bikeshare rentals in 2011.

For each one we fit a simple scikit-learn model with 5-fold cross-validation
and keep the out-of-fold predictions, so every row carries an honest
prediction next to its true outcome and a few grouping columns:

* ``default_predictions.csv`` -- probability of default from a standardized
  logistic regression (classification).
* ``bikeshare_predictions.csv`` -- predicted hourly rentals from a Poisson
  histogram gradient-boosting regressor (regression).

Everything is seeded, so rerunning reproduces the files exactly::

    pip install ISLP scikit-learn pandas
    python data/make_sample.py
"""

from pathlib import Path

import numpy as np
import pandas as pd
from ISLP import load_data
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    BaseCrossValidator,
    KFold,
    StratifiedKFold,
    cross_val_predict,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

OUT_DIR = Path(__file__).resolve().parent
SEED = 0
N_FOLDS = 5

# Weather situations from best to worst, used as an ordinal encoding.
WEATHER_ORDER = ["clear", "cloudy/misty", "light rain/snow", "heavy rain/snow"]


def fold_numbers(cv: BaseCrossValidator, X: pd.DataFrame, y: pd.Series) -> np.ndarray:
    """Return, for each row, the 1-based number of the fold in which it is held out."""
    folds = np.zeros(len(X), dtype=int)
    for number, (_, test_idx) in enumerate(cv.split(X, y), start=1):
        folds[test_idx] = number
    return folds


def make_default() -> pd.DataFrame:
    """Out-of-fold default probabilities for the ISLP ``Default`` data."""
    raw = load_data("Default")
    y = (raw["default"] == "Yes").astype(int)
    X = pd.DataFrame(
        {
            "balance": raw["balance"],
            "income": raw["income"],
            "student": (raw["student"] == "Yes").astype(int),
        }
    )
    cv = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    model = make_pipeline(StandardScaler(), LogisticRegression())
    proba = cross_val_predict(model, X, y, cv=cv, method="predict_proba")[:, 1]

    balance_band = pd.cut(
        raw["balance"],
        bins=[0, 500, 1000, 1500, np.inf],
        labels=["0-499", "500-999", "1000-1499", "1500+"],
        right=False,
    )
    income_band = pd.qcut(raw["income"], q=3, labels=["low", "middle", "high"])

    return pd.DataFrame(
        {
            "id": np.arange(1, len(raw) + 1),
            "default": y,
            "p_default": proba.round(6),
            "student": raw["student"].astype(str),
            "balance_band": balance_band.astype(str),
            "income_band": income_band.astype(str),
            "fold": fold_numbers(cv, X, y),
        }
    )


def make_bikeshare() -> pd.DataFrame:
    """Out-of-fold predicted rentals for the ISLP ``Bikeshare`` data."""
    raw = load_data("Bikeshare")
    hr = raw["hr"].astype(int)
    weather_code = raw["weathersit"].map({name: code for code, name in enumerate(WEATHER_ORDER)})
    X = pd.DataFrame(
        {
            "hr": hr,
            "weekday": raw["weekday"],
            "season": raw["season"],
            "weathersit": weather_code.astype(int),
            "temp": raw["temp"],
            "hum": raw["hum"],
            "windspeed": raw["windspeed"],
            "workingday": raw["workingday"],
            "holiday": raw["holiday"],
        }
    )
    y = raw["bikers"]
    cv = KFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    model = HistGradientBoostingRegressor(loss="poisson", random_state=SEED)
    pred = cross_val_predict(model, X, y, cv=cv)

    return pd.DataFrame(
        {
            "id": np.arange(1, len(raw) + 1),
            "season": raw["season"],
            "weathersit": raw["weathersit"].astype(str),
            "workingday": raw["workingday"],
            "hr": hr,
            "bikers": y,
            "predicted_bikers": np.clip(pred, 0, None).round(4),
        }
    )


def main() -> None:
    for name, table in [
        ("default_predictions.csv", make_default()),
        ("bikeshare_predictions.csv", make_bikeshare()),
    ]:
        path = OUT_DIR / name
        table.to_csv(path, index=False)
        print(f"wrote {path} ({len(table)} rows)")


if __name__ == "__main__":
    main()
