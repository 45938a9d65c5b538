//! client-go's informer machinery (`tools/cache`).
