"""amls.sklearn against scikit-learn: each estimator fitted on the same
data as its scikit-learn counterpart, with the same objective where the
two define the same one (coefficients compared), and the same predictions
otherwise; NumPy, scipy.sparse and pandas inputs; Pipeline and
GridSearchCV."""
import sys

import numpy as np
import pandas as pd
import scipy.sparse as sp
import sklearn.cluster
import sklearn.decomposition
import sklearn.linear_model
import sklearn.naive_bayes
import sklearn.svm
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import amls
from amls import sklearn as asl

failures = 0


def check(name, got, want, tol):
    global failures
    got = np.asarray(got, dtype=float)
    want = np.asarray(want, dtype=float)
    ok = got.shape == want.shape and not np.isnan(got).any() and \
        np.allclose(got, want, rtol=tol, atol=tol)
    print(f"{'PASS' if ok else 'FAIL'}: {name}")
    if not ok:
        failures += 1
        print("  got ", got.ravel()[:6], got.shape)
        print("  want", want.ravel()[:6], want.shape)


def check_true(name, condition, detail=""):
    global failures
    print(f"{'PASS' if condition else 'FAIL'}: {name}")
    if not condition:
        failures += 1
        print("  ", detail)


rng = np.random.default_rng(11)
n, m = 400, 6
X = rng.normal(size=(n, m))
w = rng.normal(size=m)
y = X @ w + 0.5 + 0.1 * rng.normal(size=n)

# -- regression -------------------------------------------------------------
ours = asl.LinearRegression().fit(X, y)
ref = sklearn.linear_model.LinearRegression().fit(X, y)
check("LinearRegression coef_", ours.coef_, ref.coef_, 1e-6)
check("LinearRegression intercept_", ours.intercept_, ref.intercept_, 1e-6)
check("LinearRegression score", ours.score(X, y), ref.score(X, y), 1e-9)

ours = asl.Ridge(alpha=25.0).fit(X, y)
ref = sklearn.linear_model.Ridge(alpha=25.0).fit(X, y)
check("Ridge coef_", ours.coef_, ref.coef_, 1e-9)
check("Ridge intercept_", ours.intercept_, ref.intercept_, 1e-9)
check("Ridge predict", ours.predict(X[:20]), ref.predict(X[:20]), 1e-9)
Y2 = np.column_stack([y, 2 * y - 1])
ours2 = asl.Ridge(alpha=3.0).fit(X, Y2)
ref2 = sklearn.linear_model.Ridge(alpha=3.0).fit(X, Y2)
check("Ridge two targets coef_", ours2.coef_, ref2.coef_, 1e-9)
check("Ridge two targets predict", ours2.predict(X[:5]), ref2.predict(X[:5]),
      1e-9)
Xs = sp.random(n, m, density=0.3, format="csr", random_state=3)
ys = Xs @ w + 1.0
check("Ridge scipy.sparse", asl.Ridge(alpha=0.5).fit(Xs, ys).coef_,
      sklearn.linear_model.Ridge(alpha=0.5).fit(Xs.toarray(), ys).coef_, 1e-8)
frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(m)])
fitted = asl.Ridge(alpha=25.0).fit(frame, pd.Series(y))
check("Ridge pandas", fitted.coef_, ref.coef_, 1e-9)
check_true("feature_names_in_", list(fitted.feature_names_in_) ==
           list(frame.columns))

counts = rng.poisson(np.exp(0.3 * X[:, :3] @ np.array([1.0, -0.5, 0.25]) +
                            0.2))
ours = asl.PoissonRegressor(alpha=0.01, tol=1e-10, max_iter=300).fit(
    X[:, :3], counts)
ref = sklearn.linear_model.PoissonRegressor(alpha=0.01, tol=1e-10,
                                            max_iter=1000).fit(X[:, :3],
                                                               counts)
check("PoissonRegressor coef_", ours.coef_, ref.coef_, 1e-5)
check("PoissonRegressor intercept_", ours.intercept_, ref.intercept_, 1e-5)
check("PoissonRegressor predict", ours.predict(X[:10, :3]),
      ref.predict(X[:10, :3]), 1e-5)
ours = asl.TweedieRegressor(power=0, alpha=0.1, tol=1e-10).fit(X, y)
ref = sklearn.linear_model.TweedieRegressor(power=0, alpha=0.1, tol=1e-10,
                                            max_iter=1000).fit(X, y)
check("TweedieRegressor(power=0) coef_", ours.coef_, ref.coef_, 1e-5)
positive = np.exp(0.2 * X[:, :3] @ np.array([1.0, -0.5, 0.25])) * \
    rng.gamma(4.0, 0.25, size=n)
ours = asl.GammaRegressor(alpha=0.01, tol=1e-10, max_iter=300).fit(
    X[:, :3], positive)
ref = sklearn.linear_model.GammaRegressor(alpha=0.01, tol=1e-10,
                                          max_iter=1000).fit(X[:, :3],
                                                             positive)
check("GammaRegressor coef_", ours.coef_, ref.coef_, 1e-5)
try:
    asl.GammaRegressor().fit(X[:, :3], positive - 10)
    check_true("GammaRegressor rejects y <= 0", False, "fit accepted it")
except ValueError as error:
    check_true("GammaRegressor rejects y <= 0", "out of the valid range" in
               str(error), str(error))

# -- classification ----------------------------------------------------------
labels = np.where(X @ w + 0.3 * rng.normal(size=n) > 0, "yes", "no")
ours = asl.LogisticRegression(C=0.5, tol=1e-12).fit(X, labels)
ref = sklearn.linear_model.LogisticRegression(C=0.5, tol=1e-12,
                                              max_iter=10000).fit(X, labels)
check("LogisticRegression binary coef_", ours.coef_, ref.coef_, 1e-5)
check("LogisticRegression binary intercept_", ours.intercept_,
      ref.intercept_, 1e-5)
check("LogisticRegression predict_proba", ours.predict_proba(X[:10]),
      ref.predict_proba(X[:10]), 1e-5)
check_true("LogisticRegression classes_",
           list(ours.classes_) == ["no", "yes"] and
           set(ours.predict(X)) <= {"no", "yes"})

centers = rng.normal(scale=3.0, size=(5, m))
classes = rng.integers(0, 5, size=n)
Xc = centers[classes] + rng.normal(size=(n, m))
ours = asl.LogisticRegression(C=1.0, tol=1e-10).fit(Xc, classes)
ref = sklearn.linear_model.LogisticRegression(C=1.0, tol=1e-10,
                                              max_iter=10000).fit(Xc, classes)
agree = np.mean(ours.predict(Xc) == ref.predict(Xc))
check_true("LogisticRegression 5 classes: same predictions as scikit-learn "
           "on >= 99% of rows", agree >= 0.99, f"agreement {agree}")
check_true("LogisticRegression 5 classes: training accuracy within 1%",
           ours.score(Xc, classes) >= ref.score(Xc, classes) - 0.01,
           f"{ours.score(Xc, classes)} vs {ref.score(Xc, classes)}")
check("LogisticRegression probabilities sum to 1",
      ours.predict_proba(Xc[:7]).sum(axis=1), np.ones(7), 1e-12)

ours = asl.LinearSVC(C=0.1, tol=1e-12, max_iter=1000).fit(X, labels)
ref = sklearn.svm.LinearSVC(C=0.1, tol=1e-12, max_iter=100000,
                            dual=False).fit(X, labels)
check("LinearSVC binary coef_", ours.coef_, ref.coef_, 1e-4)
check("LinearSVC binary intercept_", ours.intercept_, ref.intercept_, 1e-4)
check("LinearSVC decision_function", ours.decision_function(X[:10]),
      ref.decision_function(X[:10]), 1e-4)
ours = asl.LinearSVC(C=0.1, tol=1e-12).fit(Xc, classes)
ref = sklearn.svm.LinearSVC(C=0.1, tol=1e-12, max_iter=100000,
                            dual=False).fit(Xc, classes)
check("LinearSVC 5 classes (one against the rest) coef_", ours.coef_,
      ref.coef_, 1e-4)

counts = rng.poisson(2.0, size=(n, m)) * (1 + (classes[:, None] == np.arange(
    m) % 5))
ours = asl.MultinomialNB(alpha=0.5).fit(counts, classes)
ref = sklearn.naive_bayes.MultinomialNB(alpha=0.5).fit(counts, classes)
check("MultinomialNB feature_log_prob_", ours.feature_log_prob_,
      ref.feature_log_prob_, 1e-10)
check("MultinomialNB class_log_prior_", ours.class_log_prior_,
      ref.class_log_prior_, 1e-10)
check("MultinomialNB predict_proba", ours.predict_proba(counts[:10]),
      ref.predict_proba(counts[:10]), 1e-9)

ours = asl.GaussianNB().fit(Xc, classes)
ref = sklearn.naive_bayes.GaussianNB().fit(Xc, classes)
check("GaussianNB theta_", ours.theta_, ref.theta_, 1e-10)
check("GaussianNB var_", ours.var_, ref.var_, 1e-9)
check("GaussianNB predict_proba", ours.predict_proba(Xc[:10]),
      ref.predict_proba(Xc[:10]), 1e-8)

# -- clustering and decomposition --------------------------------------------
C0 = Xc[:5].copy()
ours = asl.KMeans(5, init=C0, n_init=1, max_iter=20, tol=0.0).fit(Xc)
ref = sklearn.cluster.KMeans(5, init=C0, n_init=1, max_iter=20, tol=0.0,
                             algorithm="lloyd").fit(Xc)
check("KMeans cluster_centers_ from given centers", ours.cluster_centers_,
      ref.cluster_centers_, 1e-9)
check("KMeans inertia_", ours.inertia_, ref.inertia_, 1e-9)
check_true("KMeans labels_", np.array_equal(ours.labels_, ref.labels_))
check_true("KMeans n_iter_", ours.n_iter_ == ref.n_iter_,
           f"{ours.n_iter_} vs {ref.n_iter_}")
ours = asl.KMeans(5, random_state=4).fit(Xc)
ref = sklearn.cluster.KMeans(5, n_init=10, random_state=4).fit(Xc)
check("KMeans k-means++: inertia_ of scikit-learn's", ours.inertia_,
      ref.inertia_, 1e-6)
check("KMeans predict is the nearest center", ours.predict(Xc[:20]),
      np.argmin(((Xc[:20, None] - ours.cluster_centers_[None]) ** 2).sum(2),
                axis=1), 0)

ours = asl.PCA(n_components=3).fit(Xc)
ref = sklearn.decomposition.PCA(n_components=3).fit(Xc)
check("PCA explained_variance_", ours.explained_variance_,
      ref.explained_variance_, 1e-9)
check("PCA explained_variance_ratio_", ours.explained_variance_ratio_,
      ref.explained_variance_ratio_, 1e-9)
check("PCA |components_ . scikit-learn's|", np.abs(
    np.sum(ours.components_ * ref.components_, axis=1)), np.ones(3), 1e-8)
signs = np.sign(np.sum(ours.components_ * ref.components_, axis=1))
check("PCA transform", ours.transform(Xc[:10]),
      ref.transform(Xc[:10]) * signs, 1e-8)
check("PCA fit_transform = transform", asl.PCA(3).fit_transform(Xc),
      ours.transform(Xc), 1e-9)

# -- scikit-learn's machinery ---------------------------------------------------
model = asl.Ridge(alpha=2.0)
copy = clone(model).set_params(alpha=7.0)
check_true("get_params/set_params/clone",
           model.get_params()["alpha"] == 2.0 and copy.alpha == 7.0 and
           not hasattr(copy, "coef_"))
grid = {"ridge__alpha": [0.01, 1.0, 100.0, 1000.0]}
ours = GridSearchCV(make_pipeline(StandardScaler(), asl.Ridge()), grid,
                    cv=4).fit(X, y)
ref = GridSearchCV(make_pipeline(StandardScaler(),
                                 sklearn.linear_model.Ridge()), grid,
                   cv=4).fit(X, y)
check_true("GridSearchCV(Pipeline(StandardScaler, Ridge)) best_params_",
           ours.best_params_ == ref.best_params_,
           f"{ours.best_params_} vs {ref.best_params_}")
check("GridSearchCV mean_test_score", ours.cv_results_["mean_test_score"],
      ref.cv_results_["mean_test_score"], 1e-9)
try:
    asl.Ridge().fit(np.where(X > 2, np.nan, X), y)
    check_true("NaN in X is rejected", False, "fit accepted NaN")
except ValueError as error:
    check_true("NaN in X is rejected", "NaN" in str(error), str(error))
try:
    asl.LogisticRegression().fit(X, np.zeros(n))
    check_true("one class is rejected", False, "fit accepted one class")
except ValueError as error:
    check_true("one class is rejected", "1 class" in str(error), str(error))
print("compilations:", amls.get_session().stats()["compilations"])
sys.exit(1 if failures else 0)
