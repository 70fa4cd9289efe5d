// Placeholder until this library's issue lands.
