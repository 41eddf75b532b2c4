// Everything a generated wrapper shard includes (generated/aten/wrappers_*.cpp).
#pragma once

#include <ATen/Operators.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/Tensor.h>
#include <torch/library.h>

#include "diopi/prototypes.h"
#include "opweave/arg_helpers.h"
#include "opweave/by_value.h"
#include "opweave/diopi_handles.h"
#include "opweave/op_call.h"
#include "opweave/op_helpers.h"
#include "opweave/op_registry.h"
#include "opweave/output_rules.h"
#include "opweave/wrapper_args.h"
