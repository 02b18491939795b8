/*
 * cudart_misc.c - runtime API calls that are pure functions of their arguments.
 */
#include "interpose/common/shim.h"

/* Returns the descriptor by value; used by texture/surface code (textures themselves are not
 * supported yet, but programs build descriptors before asking for them). */
NPU_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                              enum cudaChannelFormatKind f)
{
    NPU_API_SCOPE(__func__);
    struct cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}
