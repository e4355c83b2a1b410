/* placeholder */ int salic_placeholder(void) { return 0; }
