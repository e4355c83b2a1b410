/* placeholder */ int banner_placeholder(void) { return 0; }
