# placeholder for the compiled search core
