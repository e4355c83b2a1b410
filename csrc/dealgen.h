/* placeholder: replaced by the C deal generator */
#ifndef DEALGEN_H
#define DEALGEN_H
int dealgen_version(void);
#endif
