// How communicators reach ranks in other processes over UCX.
#ifndef PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_TRANSPORT_FACTORY_H_
#define PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_TRANSPORT_FACTORY_H_

#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// Makes UcxTransports that share this process's UcxContext (one worker,
// one progress thread, per DESIGN), created with default options on first
// use and kept while any of its transports lives.
TransportFactory UcxTransportFactory();

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_TRANSPORT_FACTORY_H_
