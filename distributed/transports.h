// The transports a job's collectives may take beside MPI, by name. NCCL registers
// itself from its own library (matsamp_nccl, linked where CUDA is), so that a
// program without CUDA carries no trace of it and names what it lacks.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "communicator.h"

namespace matsamp {

// A communicator over the job's MPI world: `bootstrap` must outlive it; gpu < 0
// leaves the choice of device to the transport.
using TransportFactory = std::function<std::unique_ptr<Communicator>(Communicator& bootstrap, int gpu)>;

// Registers a transport (at static initialization); returns true so that a
// registration is one line. A second transport of one name is a programming error.
bool register_transport(const std::string& name, TransportFactory make);
// The factory of `name`, or null when this program has none.
const TransportFactory* find_transport(const std::string& name);

}  // namespace matsamp
