// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A CFC-20 (ERC-20) behind an EIP-1967 proxy: named by `initialize`, after its creation.
contract ProxiedToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    /// OpenZeppelin's (v5) event of an initializer.
    event Initialized(uint64 version);

    bool private initialized;
    string internal _name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    function initialize(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply_) external {
        require(!initialized, "initialized");
        initialized = true;
        _name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = supply_;
        balanceOf[msg.sender] = supply_;
        emit Initialized(1);
        emit Transfer(address(0), msg.sender, supply_);
    }

    function name() external view virtual returns (string memory) {
        return _name;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance too low");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

/// @title Its second version: the same storage, a new name.
contract ProxiedTokenV2 is ProxiedToken {
    function name() external view override returns (string memory) {
        return string.concat(_name, " v2");
    }
}

/// @title A minimal EIP-1967 proxy: the implementation in the standard slot, `Upgraded` on a change.
contract TokenProxy {
    event Upgraded(address indexed implementation);

    bytes32 private constant IMPLEMENTATION_SLOT =
        0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    address private immutable admin;

    constructor(address implementation) {
        admin = msg.sender;
        _set(implementation);
    }

    function upgradeTo(address implementation) external {
        require(msg.sender == admin, "not the admin");
        _set(implementation);
    }

    function _set(address implementation) private {
        assembly {
            sstore(IMPLEMENTATION_SLOT, implementation)
        }
        emit Upgraded(implementation);
    }

    fallback() external payable {
        assembly {
            let impl := sload(IMPLEMENTATION_SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }
}
