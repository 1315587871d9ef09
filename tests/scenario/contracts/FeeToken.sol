// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A non-standard CFC-20 token: balances cannot be derived by summing Transfer events.
/// - transfer() charges a 1% fee that is burned without any event, while the Transfer event
///   reports the full amount;
/// - airdrop() mints without emitting Transfer.
contract FeeToken {
    string public constant name = "Fee On Transfer";
    string public constant symbol = "FOT";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public immutable owner;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor() {
        owner = msg.sender;
        totalSupply = 1_000_000 ether;
        balanceOf[msg.sender] = totalSupply;
        emit Transfer(address(0), msg.sender, totalSupply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance too low");
        uint256 fee = value / 100;
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value - fee;
        totalSupply -= fee;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    function airdrop(address to, uint256 value) external {
        require(msg.sender == owner, "only owner");
        balanceOf[to] += value;
        totalSupply += value;
    }
}
