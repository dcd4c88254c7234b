"""Every use of private torch API (Inductor, Dynamo, the dispatcher) in inductor_ce lives in
this subpackage, one module per concern. torch 2.11 through 2.15 are supported; names are
resolved at import.

    ir           the lowering API: IR nodes, loaders, sizes, device asserts, registration
    launch       fixed launch configurations and row-by-column tiling of our kernels
    partitioner  AOTAutograd's partitioner: our ops fuse their producers
    cache        our salt in Inductor's cache keys; cacheable routed graphs
    passes       Inductor's graph-pass slots and config (routing)
    capture      generated code, guards and counters (tests, codegen, demo)
    cpu_triton   Triton code for CPU tensors, Triton's interpreter
    standalone   compiling our small graphs without Dynamo (the eager path)
    dispatch     autograd inside a custom op's implementation (fused linear + CE)
    observe      which of our ops a compiled or cache-loaded graph calls (routing's report)
    runtime      torch's private runtime state: functorch, dispatch modes, forward AD,
                 autograd's C entry points, CUDA stream capture, module hooks, collectives
"""
