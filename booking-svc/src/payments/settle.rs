//! See [`super`]. (issue 33: being written)
