cdef extern from "dealgen.h":
    int dealgen_version()

def version():
    return dealgen_version()
