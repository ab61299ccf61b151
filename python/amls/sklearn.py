"""scikit-learn estimators that fit with AMLS's DML library.

    from amls.sklearn import Ridge, LogisticRegression, KMeans
    model = Ridge(alpha=1.0).fit(X, y)          # lm() compiled and run by AMLS
    model.coef_, model.intercept_, model.score(X, y)

Each estimator follows scikit-learn's conventions (fit/predict/score/
transform, get_params/set_params, fitted attributes ending in "_") and works
in Pipeline and GridSearchCV. X may be a NumPy array, a scipy.sparse matrix
(it stays CSR in AMLS) or a pandas DataFrame. fit() runs a DML program
calling the library function (lm, multiLogReg, l2svm, msvm, pca,
naiveBayes, glm; KMeans and GaussianNB are short DML programs of their
own) in the default session (amls.get_session()); each program
compiles once per session and input sizes. predict() and transform() are
one product with the fitted coefficients and run in NumPy/SciPy: compiling
them would cost more than they take. `verbose=1` lets the library function
print its iterations (iteration, objective) as scikit-learn's verbose does.
docs/python.md maps each estimator's parameters to the library's and lists
the estimator checks each one does not pass and why.
"""

import weakref

import numpy as _np
import scipy.sparse as _sparse
from sklearn.base import (BaseEstimator, ClassifierMixin, ClusterMixin,
                          RegressorMixin, TransformerMixin)
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:  # Debian 12's 1.2: the estimator's method
    def _validate_data(estimator, *args, **kwargs):
        return estimator._validate_data(*args, **kwargs)

from . import get_session

__all__ = ["LinearRegression", "Ridge", "LogisticRegression", "LinearSVC",
           "KMeans", "PCA", "MultinomialNB", "GaussianNB", "TweedieRegressor",
           "PoissonRegressor", "GammaRegressor"]

# The fit programs: DML scripts over the library, one per estimator kind.
# Hyperparameters are inputs, so a grid search does not recompile them.
_LM = """
B = lm(X, y, icpt = icpt, reg = reg, tol = tol, maxi = maxi,
       verbose = verbose)
"""
_MULTI_LOG_REG = """
B = multiLogReg(X, Y, icpt = icpt, tol = tol, reg = reg, maxi = maxi,
                verbose = verbose)
"""
_L2SVM = """
w = l2svm(X, Y, intercept = intercept, epsilon = tol, reg = reg,
          maxIterations = maxi, verbose = verbose)
"""
_MSVM = """
W = msvm(X, Y, intercept = intercept, epsilon = tol, reg = reg,
         maxIterations = maxi, verbose = verbose)
"""
# k-means: `runs` runs, each seeded by k-means++ (the first center a
# uniformly drawn row, each next one a row drawn with probability
# proportional to its squared distance to the nearest center so far) unless
# C0 gives the centers, then Lloyd's iterations until the centers move by at
# most tol (squared, in total: scikit-learn's rule) or maxi iterations; the
# run with the least inertia wins.
_KMEANS = """
n = nrow(X)
k = nrow(C0)
norms = rowSums(X ^ 2)
best = -1
C = C0
iter = 0
for (r in 1:runs) {
  Cr = C0
  if (seeded) {
    base = seed + (r - 1) * (k + 1)
    u = as.scalar(rand(rows = 1, cols = 1, seed = base))
    Cr[1, ] = X[min(n, floor(u * n) + 1), ]
    j = 2
    while (j <= k) {
      S = Cr[1:(j - 1), ]
      D = norms - 2 * (X %*% t(S)) + t(rowSums(S ^ 2))
      cum = cumsum(max(rowMins(D), 0))
      u = as.scalar(rand(rows = 1, cols = 1, seed = base + j))
      i = min(n, sum(cum < u * as.scalar(cum[n, 1])) + 1)
      Cr[j, ] = X[i, ]
      j = j + 1
    }
  }
  it = 0
  shift = tol + 1
  while (it < maxi & shift > tol) {
    D = -2 * (X %*% t(Cr)) + t(rowSums(Cr ^ 2))
    P = table(seq(1, n), rowIndexMin(D), n, k)
    counts = t(colSums(P))
    empty = counts == 0
    Cnew = (t(P) %*% X) / (counts + empty) + empty * Cr
    shift = sum((Cnew - Cr) ^ 2)
    Cr = Cnew
    it = it + 1
    if (verbose)
      print("Run " + r + ", iteration " + it + ", center shift " + shift)
  }
  D = -2 * (X %*% t(Cr)) + t(rowSums(Cr ^ 2))
  inertia_r = max(sum(norms) + sum(rowMins(D)), 0)
  if (best < 0 | inertia_r < best) {
    best = inertia_r
    C = Cr
    iter = it
  }
}
inertia = best
"""
_PCA = """
[R, V, mu, sf] = pca(X, K = K, center = TRUE, scale = FALSE)
variance = colVars(R)
total = sum(colVars(X))
"""
_NAIVE_BAYES = """
[prior, conditionals] = naiveBayes(X, Y, laplace = laplace, verbose = verbose)
"""
# Per class: count, mean and (biased) variance of each feature.
_GAUSSIAN_NB = """
P = table(Y, seq(1, nrow(X)), k, nrow(X))
counts = rowSums(P)
theta = (P %*% X) / counts
sigma = (P %*% (X ^ 2)) / counts - theta ^ 2
sigma = max(sigma, 0) + epsilon
"""
_GLM = """
B = glm(X, Y, dfam = 1, vpow = vpow, link = 1, lpow = lpow, icpt = icpt,
        reg = reg, tol = tol, moi = maxi, verbose = verbose)
"""

# The compiled fit programs of each session.
_programs = weakref.WeakKeyDictionary()


def _run(source, outputs, **inputs):
    session = get_session()
    functions = _programs.setdefault(session, {})
    function = functions.get(source)
    if function is None:
        function = functions[source] = session.compile_dml(
            source, outputs=outputs, name=f"<amls.sklearn {len(functions)}>")
    return function(**inputs)


def _column(values):
    return _np.ascontiguousarray(values, dtype=_np.float64).reshape(-1, 1)


def _matrix(value):
    """A 2-D result as an array (a 1 x 1 result may come back a number)."""
    return _np.atleast_2d(_np.asarray(value, dtype=_np.float64))


def _linear(X, coef, intercept):
    """X @ coef.T + intercept, for X dense or sparse."""
    scores = X @ coef.T
    return _np.asarray(scores) + intercept


def _check_positive(name, value, strict=True):
    if not (value > 0 if strict else value >= 0):
        raise ValueError(f"{name} must be {'positive' if strict else 'non-negative'}"
                         f", found {value!r}")


class _Fitter(BaseEstimator):
    """What every estimator here shares: input validation."""

    def _fit_data(self, X, **kwargs):
        """X of an unsupervised fit, validated."""
        return _validate_data(self, X, accept_sparse="csr",
                              dtype=_np.float64, **kwargs)

    def _fit_xy(self, X, y, **kwargs):
        """X and y of a supervised fit, validated."""
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be "
                             f"passed, but the target y is None")
        return _validate_data(self, X, y, accept_sparse="csr",
                              dtype=_np.float64, **kwargs)

    def _predict_data(self, X):
        check_is_fitted(self)
        return _validate_data(self, X, accept_sparse="csr",
                              dtype=_np.float64, reset=False)


# -- linear models ---------------------------------------------------------

class _LinearRegressor(RegressorMixin, _Fitter):

    def _more_tags(self):
        return {"multioutput": True}

    def _fit_lm(self, X, y, reg, tol=1e-7, max_iter=0):
        X, y = self._fit_xy(X, y, multi_output=True, y_numeric=True)
        Y = y.reshape(len(y), -1).astype(_np.float64)
        out = _run(_LM, ["B"], X=X, y=Y, icpt=1 if self.fit_intercept else 0,
                   reg=float(reg), tol=float(tol), maxi=int(max_iter),
                   verbose=bool(self._verbose()))
        B = _matrix(out["B"]).reshape(-1, Y.shape[1])
        coef = B[:X.shape[1]].T
        intercept = B[X.shape[1]] if self.fit_intercept else _np.zeros(
            Y.shape[1])
        if y.ndim == 1:
            coef, intercept = coef[0], float(intercept[0])
        self.coef_, self.intercept_ = coef, intercept
        return self

    def _verbose(self):
        return getattr(self, "verbose", 0)

    def predict(self, X):
        X = self._predict_data(X)
        return _linear(X, _np.atleast_2d(self.coef_),
                       self.intercept_).reshape(
            (X.shape[0],) + _np.shape(self.intercept_))


class LinearRegression(_LinearRegressor):
    """Least squares by lm (lmDS, the normal equations, up to 1,024
    features; lmCG, conjugate gradients, beyond), with lm's ridge of 1e-7
    that keeps collinear features solvable."""

    def __init__(self, *, fit_intercept=True):
        self.fit_intercept = fit_intercept

    def fit(self, X, y):
        return self._fit_lm(X, y, reg=1e-7)


class Ridge(_LinearRegressor):
    """Least squares with an L2 penalty alpha * |w|^2 (not on the
    intercept), scikit-learn's objective, by lm(reg = alpha)."""

    def __init__(self, alpha=1.0, *, fit_intercept=True, tol=1e-7,
                 max_iter=None, verbose=0):
        self.alpha, self.fit_intercept = alpha, fit_intercept
        self.tol, self.max_iter, self.verbose = tol, max_iter, verbose

    def fit(self, X, y):
        _check_positive("alpha", self.alpha, strict=False)
        return self._fit_lm(X, y, reg=self.alpha, tol=self.tol,
                            max_iter=self.max_iter or 0)


class _Classifier(ClassifierMixin, _Fitter):

    def _labels(self, y):
        """y as labels 1..K of classes_."""
        check_classification_targets(y)
        self.classes_, codes = _np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at "
                             f"least 2 classes in the data, found 1 class: "
                             f"{self.classes_[0]!r}")
        return _column(codes + 1)

    def predict(self, X):
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[_np.argmax(scores, axis=1)]


class LogisticRegression(_Classifier):
    """Multinomial logistic regression by multiLogReg (trust-region Newton):
    minimizes the negative log-likelihood + 1/(2C) |w|^2 (the intercept is
    not penalized), scikit-learn's objective. The library parametrizes K
    classes by K - 1 coefficient vectors against the last class (the same
    model for two classes, a different parametrization of the same
    predictions for more: coef_ has the last class's row zero)."""

    def __init__(self, C=1.0, *, fit_intercept=True, tol=1e-6, max_iter=100,
                 verbose=0):
        self.C, self.fit_intercept = C, fit_intercept
        self.tol, self.max_iter, self.verbose = tol, max_iter, verbose

    def fit(self, X, y):
        _check_positive("C", self.C)
        X, y = self._fit_xy(X, y)
        Y = self._labels(y)
        out = _run(_MULTI_LOG_REG, ["B"], X=X, Y=Y,
                   icpt=1 if self.fit_intercept else 0, tol=float(self.tol),
                   reg=1.0 / float(self.C), maxi=int(self.max_iter),
                   verbose=bool(self.verbose))
        B = _matrix(out["B"]).reshape(-1, len(self.classes_) - 1)
        m = X.shape[1]
        weights = _np.vstack([B.T, _np.zeros((1, B.shape[0]))])
        coef = weights[:, :m]
        intercept = weights[:, m] if self.fit_intercept else _np.zeros(
            len(self.classes_))
        if len(self.classes_) == 2:  # class 1 against class 0
            coef = (coef[1] - coef[0]).reshape(1, -1)
            intercept = _np.array([intercept[1] - intercept[0]])
        self.coef_, self.intercept_ = coef, intercept
        return self

    def decision_function(self, X):
        scores = _linear(self._predict_data(X), self.coef_, self.intercept_)
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict_proba(self, X):
        scores = self.decision_function(X)
        if scores.ndim == 1:
            scores = _np.column_stack([_np.zeros_like(scores), scores])
        scores = scores - scores.max(axis=1, keepdims=True)
        p = _np.exp(scores)
        return p / p.sum(axis=1, keepdims=True)

    def predict_log_proba(self, X):
        return _np.log(self.predict_proba(X))


class LinearSVC(_Classifier):
    """Linear support vector classification with the squared hinge loss:
    minimizes 1/2 |w|^2 + C * sum(max(0, 1 - y w.x)^2), scikit-learn's
    (liblinear's) objective with the intercept penalized like a feature, by
    l2svm(reg = 1 / (2C)) for two classes and msvm (one against the rest)
    for more."""

    def __init__(self, C=1.0, *, fit_intercept=True, tol=1e-4,
                 max_iter=1000, verbose=0):
        self.C, self.fit_intercept = C, fit_intercept
        self.tol, self.max_iter, self.verbose = tol, max_iter, verbose

    def fit(self, X, y):
        _check_positive("C", self.C)
        X, y = self._fit_xy(X, y)
        Y = self._labels(y)
        inputs = dict(X=X, intercept=bool(self.fit_intercept),
                      tol=float(self.tol), reg=0.5 / float(self.C),
                      maxi=int(self.max_iter), verbose=bool(self.verbose))
        m = X.shape[1]
        if len(self.classes_) == 2:
            w = _matrix(_run(_L2SVM, ["w"], Y=2 * Y - 3, **inputs)["w"])
            W = w.reshape(-1, 1)
        else:
            W = _matrix(_run(_MSVM, ["W"], Y=Y, **inputs)["W"]).reshape(
                -1, len(self.classes_))
        self.coef_ = W[:m].T.copy()
        self.intercept_ = (W[m].copy() if self.fit_intercept
                           else _np.zeros(W.shape[1]))
        return self

    def decision_function(self, X):
        scores = _linear(self._predict_data(X), self.coef_, self.intercept_)
        return scores[:, 0] if len(self.classes_) == 2 else scores


class _GLMRegressor(RegressorMixin, _Fitter):
    """scikit-learn's objective 1/(2n) * deviance + alpha/2 * |w|^2 (not on
    the intercept), by glm's Fisher scoring with reg = alpha * n."""

    def _more_tags(self):
        return {"requires_positive_y": True, "_xfail_checks": {
            "check_non_transformer_estimators_n_iter":
                "glm (SystemDS's interface) does not return its iteration "
                "count: no n_iter_"}}

    def _fit_glm(self, X, y, power, link):
        _check_positive("alpha", self.alpha, strict=False)
        X, y = self._fit_xy(X, y, y_numeric=True)
        if link == "auto":
            link = "identity" if power <= 0 else "log"
        if link not in ("identity", "log"):
            raise ValueError(f"link must be 'auto', 'identity' or 'log', "
                             f"found {link!r}")
        if 0 < power < 1:
            raise ValueError(f"power must be <= 0 or >= 1, found {power}")
        if (1 <= power < 2 and _np.any(y < 0)) or (power >= 2 and
                                                   _np.any(y <= 0)):
            raise ValueError(f"Some value(s) of y are out of the valid range "
                             f"of the Tweedie distribution with power "
                             f"{power}")
        out = _run(_GLM, ["B"], X=X, Y=_column(y), vpow=float(power),
                   lpow=0.0 if link == "log" else 1.0,
                   icpt=1 if self.fit_intercept else 0,
                   reg=float(self.alpha) * X.shape[0], tol=float(self.tol),
                   maxi=int(self.max_iter), verbose=bool(self.verbose))
        B = _matrix(out["B"]).reshape(-1)
        m = X.shape[1]
        self.coef_ = B[:m].copy()
        self.intercept_ = float(B[m]) if self.fit_intercept else 0.0
        self._link = link
        return self

    def predict(self, X):
        eta = _linear(self._predict_data(X), self.coef_.reshape(1, -1),
                      self.intercept_)[:, 0]
        return _np.exp(eta) if self._link == "log" else eta


class TweedieRegressor(_GLMRegressor):
    """A generalized linear model with a Tweedie distribution (power 0:
    normal, 1: Poisson, 2: Gamma, 3: inverse Gaussian) and an identity or
    log link, by glm (dfam 1, vpow = power, link 1 with lpow 1 or 0)."""

    def __init__(self, *, power=0.0, alpha=1.0, fit_intercept=True,
                 link="auto", max_iter=100, tol=1e-4, verbose=0):
        self.power, self.alpha, self.fit_intercept = power, alpha, fit_intercept
        self.link, self.max_iter, self.tol = link, max_iter, tol
        self.verbose = verbose

    def fit(self, X, y):
        return self._fit_glm(X, y, float(self.power), self.link)


class _FixedFamilyRegressor(_GLMRegressor):
    """A GLM whose family and link the class fixes (_power, log link)."""

    def __init__(self, *, alpha=1.0, fit_intercept=True, max_iter=100,
                 tol=1e-4, verbose=0):
        self.alpha, self.fit_intercept = alpha, fit_intercept
        self.max_iter, self.tol, self.verbose = max_iter, tol, verbose

    def fit(self, X, y):
        return self._fit_glm(X, y, self._power, "log")


class PoissonRegressor(_FixedFamilyRegressor):
    """Poisson regression with a log link by glm."""
    _power = 1.0


class GammaRegressor(_FixedFamilyRegressor):
    """Gamma regression with a log link by glm."""
    _power = 2.0


# -- clustering and decomposition -----------------------------------------

class KMeans(ClusterMixin, TransformerMixin, _Fitter):
    """k-means in one DML program: n_init runs, each seeded by k-means++
    (random_state seeds them) or starting from the array `init`, refined by
    Lloyd's iterations until the centers move by at most tol times the mean
    feature variance (squared, in total: scikit-learn's rule) or max_iter
    iterations; the run with the least inertia wins. (The library's kmeans
    seeds on a sample and returns no iteration count: scikit-learn's init
    and n_iter_ need this program.)"""

    def __init__(self, n_clusters=8, *, init="k-means++", n_init=10,
                 max_iter=300, tol=1e-4, random_state=None, verbose=0):
        self.n_clusters, self.init, self.n_init = n_clusters, init, n_init
        self.max_iter, self.tol = max_iter, tol
        self.random_state, self.verbose = random_state, verbose

    def fit(self, X, y=None):
        X = self._fit_data(X)
        k = self.n_clusters
        if not isinstance(k, (int, _np.integer)) or k < 1:
            raise ValueError(f"n_clusters must be a positive integer, found "
                             f"{k!r}")
        if X.shape[0] < k:
            raise ValueError(f"n_samples={X.shape[0]} should be >= "
                             f"n_clusters={k}.")
        seeded = isinstance(self.init, str)
        if seeded:
            if self.init != "k-means++":
                raise ValueError(f"init must be 'k-means++' or an array of "
                                 f"initial centers, found {self.init!r}")
            C0 = _np.zeros((k, X.shape[1]))
        else:
            C0 = _np.array(self.init, dtype=_np.float64)
            if C0.shape != (k, X.shape[1]):
                raise ValueError(f"The shape of the initial centers "
                                 f"{C0.shape} does not match the number of "
                                 f"clusters {k} and features {X.shape[1]}")
        seed = self.random_state
        if not isinstance(seed, (int, _np.integer)):
            seed = _np.random.RandomState(seed).randint(0, 2 ** 30)
        variance = (_np.asarray(X.power(2).mean(axis=0)).ravel() -
                    _np.asarray(X.mean(axis=0)).ravel() ** 2
                    if _sparse.issparse(X) else _np.var(X, axis=0))
        out = _run(_KMEANS, ["C", "inertia", "iter"], X=X, C0=C0,
                   seeded=seeded, runs=int(self.n_init) if seeded else 1,
                   seed=int(seed), maxi=int(self.max_iter),
                   tol=float(self.tol) * float(_np.mean(variance)),
                   verbose=bool(self.verbose))
        self.cluster_centers_ = _matrix(out["C"]).reshape(k, X.shape[1])
        self.inertia_ = float(out["inertia"])
        self.n_iter_ = int(out["iter"])
        self.labels_ = self._nearest(X)
        return self

    def _distances(self, X):
        C = self.cluster_centers_
        squared = _np.asarray(X.multiply(X).sum(axis=1)).ravel() if \
            _sparse.issparse(X) else _np.einsum("ij,ij->i", X, X)
        D = _np.asarray(X @ C.T) * -2 + (C * C).sum(axis=1)
        return _np.maximum(D + squared[:, None], 0)

    def _nearest(self, X):
        return _np.argmin(self._distances(X), axis=1)

    def predict(self, X):
        return self._nearest(self._predict_data(X))

    def transform(self, X):
        return _np.sqrt(self._distances(self._predict_data(X)))

    def score(self, X, y=None):
        return -float(_np.min(self._distances(self._predict_data(X)),
                              axis=1).sum())


class PCA(TransformerMixin, _Fitter):
    """Principal components by the library's pca (eigenvectors of the
    covariance matrix of the centered data). Each component's sign makes
    its largest-magnitude coefficient positive, so results are
    reproducible; explained_variance_ is the variance (n - 1) along each."""

    def __init__(self, n_components=None):
        self.n_components = n_components

    def fit(self, X, y=None):
        self._fit(X)
        return self

    def _fit(self, X):
        X = self._fit_data(X)
        K = self.n_components
        if K is None:
            K = min(X.shape)
        if not isinstance(K, (int, _np.integer)) or not 1 <= K <= min(
                X.shape):
            raise ValueError(f"n_components={K!r} must be between 1 and "
                             f"min(n_samples, n_features)={min(X.shape)}")
        if X.shape[0] < 2:
            raise ValueError(f"PCA needs at least 2 samples, found "
                             f"{X.shape[0]} sample")
        out = _run(_PCA, ["R", "V", "mu", "variance", "total"], X=X, K=int(K))
        V = _matrix(out["V"]).reshape(X.shape[1], K).T
        signs = _np.sign(V[_np.arange(K), _np.argmax(_np.abs(V), axis=1)])
        signs[signs == 0] = 1
        self.components_ = V * signs[:, None]
        self.mean_ = _matrix(out["mu"]).reshape(-1)
        self.explained_variance_ = _matrix(out["variance"]).reshape(-1)
        total = float(out["total"])
        self.explained_variance_ratio_ = (self.explained_variance_ / total
                                          if total > 0 else
                                          _np.zeros(K))
        self.n_components_ = int(K)
        return _matrix(out["R"]).reshape(X.shape[0], K) * signs

    def fit_transform(self, X, y=None):
        return self._fit(X)

    def transform(self, X):
        X = self._predict_data(X)
        return _np.asarray(X @ self.components_.T) - \
            self.mean_ @ self.components_.T

    def inverse_transform(self, X):
        return _np.asarray(X) @ self.components_ + self.mean_


# -- naive Bayes -----------------------------------------------------------

class MultinomialNB(_Classifier):
    """Multinomial naive Bayes with additive (Laplace) smoothing alpha, by
    naiveBayes: counts of non-negative features per class."""

    def __init__(self, *, alpha=1.0, verbose=0):
        self.alpha, self.verbose = alpha, verbose

    def fit(self, X, y):
        _check_positive("alpha", self.alpha, strict=False)
        X, y = self._fit_xy(X, y)
        if (X.data if _sparse.issparse(X) else X).min(initial=0) < 0:
            raise ValueError("Negative values in data passed to "
                             "MultinomialNB (input X)")
        Y = self._labels(y)
        out = _run(_NAIVE_BAYES, ["prior", "conditionals"], X=X, Y=Y,
                   laplace=float(self.alpha), verbose=bool(self.verbose))
        k = len(self.classes_)
        with _np.errstate(divide="ignore"):
            self.class_log_prior_ = _np.log(_matrix(out["prior"]).reshape(k))
            self.feature_log_prob_ = _np.log(
                _matrix(out["conditionals"]).reshape(k, X.shape[1]))
        return self

    def _more_tags(self):
        # As scikit-learn's MultinomialNB: counts, and a poor fit of the
        # checks' Gaussian blobs.
        return {"requires_positive_X": True, "poor_score": True}

    def _joint_log_likelihood(self, X):
        X = self._predict_data(X)
        return _np.asarray(X @ self.feature_log_prob_.T) + \
            self.class_log_prior_

    def predict(self, X):
        scores = self._joint_log_likelihood(X)
        return self.classes_[_np.argmax(scores, axis=1)]

    def predict_proba(self, X):
        scores = self._joint_log_likelihood(X)
        scores = scores - scores.max(axis=1, keepdims=True)
        p = _np.exp(scores)
        return p / p.sum(axis=1, keepdims=True)


class GaussianNB(_Classifier):
    """Gaussian naive Bayes: per class the mean and variance of each
    feature, computed by AMLS as products with the class indicator matrix;
    var_smoothing times the largest feature variance is added to every
    variance, as scikit-learn does."""

    def __init__(self, *, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing

    def fit(self, X, y):
        X, y = self._fit_xy(X, y)
        if _sparse.issparse(X):
            X = X.toarray()
        Y = self._labels(y)
        k = len(self.classes_)
        epsilon = float(self.var_smoothing) * float(_np.var(X, axis=0).max())
        out = _run(_GAUSSIAN_NB, ["counts", "theta", "sigma"], X=X, Y=Y, k=k,
                   epsilon=epsilon)
        self.class_count_ = _matrix(out["counts"]).reshape(k)
        self.class_prior_ = self.class_count_ / self.class_count_.sum()
        self.theta_ = _matrix(out["theta"]).reshape(k, X.shape[1])
        self.var_ = _matrix(out["sigma"]).reshape(k, X.shape[1])
        self.epsilon_ = epsilon
        return self

    def _joint_log_likelihood(self, X):
        X = self._predict_data(X)
        if _sparse.issparse(X):
            X = X.toarray()
        log_norm = -0.5 * _np.log(2 * _np.pi * self.var_).sum(axis=1)
        squares = ((X[:, None, :] - self.theta_[None]) ** 2 /
                   self.var_[None]).sum(axis=2)
        return _np.log(self.class_prior_) + log_norm - 0.5 * squares

    predict = MultinomialNB.predict
    predict_proba = MultinomialNB.predict_proba
