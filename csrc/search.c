/* placeholder */ int search_placeholder(void) { return 0; }
