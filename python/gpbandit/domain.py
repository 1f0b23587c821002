"""Domain: where actions live (gpbandit/space/domain.h).

Domain.box(lower, upper), Domain.finite(candidates) with one candidate per row, and
.with_context(dim=None, lower=None, upper=None) for contexts revealed each round."""

from ._core import Domain

__all__ = ["Domain"]
