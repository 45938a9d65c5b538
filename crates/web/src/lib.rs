//! The playground page.
