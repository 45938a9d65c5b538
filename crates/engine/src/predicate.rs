//! controller-runtime predicates (`pkg/predicate/predicate.go`).
