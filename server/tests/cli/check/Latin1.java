class Latin {
  // café
}
