/* placeholder */ int table_placeholder(void) { return 0; }
