# Environment for the NCCL transport on multi-node GPU jobs (sourced by the batch scripts).
# Adjust the interface names to the cluster: `ip -br link` on a compute node lists them.
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}               # INFO prints the rings/trees NCCL picked
export NCCL_ASYNC_ERROR_HANDLING=${NCCL_ASYNC_ERROR_HANDLING:-1}
export TORCH_NCCL_ASYNC_ERROR_HANDLING=${TORCH_NCCL_ASYNC_ERROR_HANDLING:-1}   # torch >= 2.2's name: a failed collective ends the job
# export NCCL_SOCKET_IFNAME=ib0                    # bootstrap and socket traffic
# export NCCL_IB_HCA=mlx5_0,mlx5_1                 # InfiniBand adapters to use
# export NCCL_NET_GDR_LEVEL=PHB                    # GPUDirect RDMA when NIC and GPU share a switch
