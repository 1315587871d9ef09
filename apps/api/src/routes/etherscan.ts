import { mount } from "../endpoints/endpoint.ts";
import { ETHERSCAN_ENDPOINTS } from "../endpoints/etherscan/index.ts";

export const etherscanRoutes = mount(ETHERSCAN_ENDPOINTS);
