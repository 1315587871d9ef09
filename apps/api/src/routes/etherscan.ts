import { mount } from "../endpoints/endpoint.ts";
import { etherscanGet, etherscanPost } from "../endpoints/etherscan.ts";

export const etherscanRoutes = mount([etherscanGet, etherscanPost]);
